"""Lab 01 as a student meets it: the student-path specification (tests/student_path.py).

For every lab module that lists its tasks (``TASKS``), its catalogue of typical mistakes
(``MISTAKES``) and its parameter contract (``PARAMETERS``, a :class:`simlab.course.parameters.Parameters`):

1. The untouched student lab runs top to bottom; the only exceptions are the stubs' own
   ``NotImplementedError`` (in cells tagged ``raises-exception``, so Jupyter's Run All goes on),
   and the check after every task says ``[not yet] Task X is not done yet``.
2. Each catalogued mistake, written into the solution code of its task, makes that task's check
   fail with the catalogued hint.
3. The contract is declared (unit, meaning, rules and a valid alternative value per parameter);
   the parameter cell, right after the imports, sets exactly the declared parameters to their
   defaults and calls ``lab.use_parameters()``; no other cell rebinds one.
4. Each parameter at its alternative value, and all of them at once, leave every check of the
   solved lab ``[correct]`` (no ``[not yet]`` line, no error).
5. The solved lab itself checks ``[correct]`` everywhere (hints shown on purpose print as
   ``[expected hint]``): read from the solution's stored outputs, which nbval, in the same test
   run, checks against a fresh execution.
"""

from student_path import lab_tests

globals().update(lab_tests("01"))
