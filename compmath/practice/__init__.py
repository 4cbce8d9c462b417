"""The students' practice mode: exercises generated from the labs, checked against snapshots."""
