"""Grading a class of students: submissions, the verdict, records, gradebook, shards."""
