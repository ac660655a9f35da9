"""Case-study plants of the course (the systems the labs simulate)."""
