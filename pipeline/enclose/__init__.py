"""``tsumego enclose``: open-board book problems into enclosed ones, checked against the book.

``reader`` reads an open-board file, ``frame`` closes the region of a
candidate target with the attacker's wall, ``question`` infers the target and
the goal by solving every candidate, ``outcome`` decides a problem's outcome
and writes its file, ``stage`` is the Beam pipeline, ``summary`` its report
and ``command`` the command line.
"""
