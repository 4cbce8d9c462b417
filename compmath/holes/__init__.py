"""The hole-judging core: a lab's solution regions, the student's holes grafted into the course's
lab, the variants they are judged at, their verdict, and the wrong versions that prove each hole.

practice, grading and notebook stand on it side by side; so does lint (authoring)."""
