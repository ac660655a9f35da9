"""Lab 01 as a student meets it: the student-path specification (tests/student_path.py).

For every lab module that lists its tasks (``TASKS``), its catalogue of typical mistakes
(``MISTAKES``) and its documented parameters (``PARAMETER_CHANGES``):

1. The untouched student lab runs top to bottom; the only exceptions are the stubs' own
   ``NotImplementedError`` (in cells tagged ``raises-exception``, so Jupyter's Run All goes on),
   and the check after every task says ``[not yet] Task X is not done yet``.
2. Each catalogued mistake, written into the solution code of its task, makes that task's check
   fail with the catalogued hint.
3. Each documented parameter, set to another value in the solution, leaves every check of the
   solved lab ``[correct]`` (no ``[not yet]`` line, no error).
4. The solved lab itself checks ``[correct]`` everywhere (hints shown on purpose print as
   ``[expected hint]``): read from the solution's stored outputs, which nbval, in the same test
   run, checks against a fresh execution.
"""

from student_path import lab_tests

globals().update(lab_tests("01"))
