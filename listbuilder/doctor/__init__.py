"""The list doctor: the smallest fix for an illegal list, and what to add with the points left.

``fix`` and ``fill`` (``solve.py``) pose each question as a small integer program
(``program.py``) over the copies of each unit profile the list may field (``slots.py``); each
force rule writes its own rows (``rules/forcerules``), and HiGHS solves it exactly. Only these
commands import the solver.
"""

from listbuilder.doctor.answers import Change, DoctorAnswer, StatlineFix, Step, Suggestion
from listbuilder.doctor.solve import fill, fix

__all__ = ["Change", "DoctorAnswer", "StatlineFix", "Step", "Suggestion", "fill", "fix"]
