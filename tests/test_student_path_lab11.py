"""Lab 11 as a student meets it: the student-path specification (tests/student_path.py).
"""

from student_path import lab_tests

globals().update(lab_tests("11"))
