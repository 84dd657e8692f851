"""The club's secrets: sign-in links and session ids made at random, stored only as hashes and
compared in constant time; passphrases hashed with argon2id (``argon2-cffi``), never a home-made hash.

A link secret or a session id is 32 random bytes (``secrets.token_urlsafe``): far too many to
guess, so a fast hash (SHA-256) is what is stored, and a copy of the database signs nobody in.
A passphrase is chosen by a person and may be guessed: it gets argon2id's slow, salted hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argon2 import PasswordHasher

SECRET_BYTES = 32
MIN_PASSPHRASE = 10  # characters: a passphrase of a few words, not a PIN
MAX_PASSPHRASE = 1000  # argon2 hashes whatever it is given: a bound on the work a form can ask
# argon2id's cost: OWASP's recommended minimum (19 MiB of memory, 2 passes, 1 lane), about 30 ms;
# at most HASHING_AT_ONCE at a time, so a crowd of sign-ins cannot take the server's memory.
TIME_COST, MEMORY_KIB, LANES = 2, 19 * 1024, 1
HASHING_AT_ONCE = 2
_HASHING = threading.BoundedSemaphore(HASHING_AT_ONCE)


def new_secret() -> str:
    """A fresh random secret (a link's or a session's), URL-safe."""
    return secrets.token_urlsafe(SECRET_BYTES)


def hashed(secret: str) -> str:
    """What the store keeps of a secret: its SHA-256, as hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same(a: str, b: str) -> bool:
    """Whether two hashes (or tokens) are equal, in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def form_token(session: str) -> str:
    """The token a signed-in browser's forms carry: derived from its session id, so it needs no
    storing and changes at every sign-in; a page of another site cannot read it."""
    return hmac.new(session.encode(), b"listbuilder form token", hashlib.sha256).hexdigest()[:32]


def hash_passphrase(passphrase: str) -> str:
    """A passphrase's argon2id hash (with its salt and parameters, as argon2 encodes them)."""
    with _HASHING:
        return _hasher().hash(passphrase)


def _hasher() -> PasswordHasher:
    from argon2 import PasswordHasher  # only setting or checking a passphrase needs it

    return PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=LANES)


def passphrase_matches(stored: str, given: str) -> bool:
    """Whether ``given`` is the passphrase whose hash is ``stored`` (argon2 compares in constant time)."""
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        with _HASHING:
            return bool(_hasher().verify(stored, given))
    except (VerificationError, InvalidHashError):
        return False
