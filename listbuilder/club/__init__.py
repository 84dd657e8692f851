"""Club mode: one server a whole club shares, each member with their own folder of lists.

A club folder is an ordinary folder with ``.listbuilder/club.sqlite`` in it (``store``): the
members, their sign-in links and sessions (stored hashed, ``secrets``), passphrases (argon2id),
the activity log and which lists are shared. Each member's lists stay plain YAML files in
``FOLDER/members/<member>/`` (``layout``), so a backup is a copy of the folder. ``access`` is
the one answer to "may this member do this to that member's lists"; ``limits`` counts attempts
to sign in. Everything here is plain data and files; the web's gate (``web/gate.py``) and the
command line reach it through ``listbuilder.api.club``.
"""
