"""``markdown_table``: the one builder of every table the project prints or writes."""
import pytest

from pipeline.markdown import markdown_table


def test_lines_are_header_rule_and_one_per_row():
    assert markdown_table(["folder", "problems", "seconds"], [["ko/", 11, "0.0042"], ["**all**", 97, 1.5]]) == [
        "| folder | problems | seconds |",
        "|---|---:|---:|",
        "| ko/ | 11 | 0.0042 |",
        "| **all** | 97 | 1.5 |",
    ]


def test_by_default_the_first_column_is_left_aligned_and_the_others_right():
    assert markdown_table(["a"], [])[1] == "|---|"
    assert markdown_table(["a", "b", "c", "d"], [])[1] == "|---|---:|---:|---:|"


def test_align_sets_each_column():
    assert markdown_table(["bits", "scheme", "error"], [[5, "clip", "0.0661"]], align="rlr") == [
        "| bits | scheme | error |",
        "|---:|---|---:|",
        "| 5 | clip | 0.0661 |",
    ]
    assert markdown_table(["x", "y"], [], align="rr")[1] == "|---:|---:|"


def test_rows_may_be_any_iterable_and_cells_any_value():
    rows = ((n, n * n, None) for n in range(2))
    assert markdown_table(["n", "square", "note"], rows)[2:] == ["| 0 | 0 | None |", "| 1 | 1 | None |"]


def test_an_empty_cell_keeps_its_column():
    assert markdown_table(["", "DFS"], [["total", ""]]) == ["|  | DFS |", "|---|---:|", "| total |  |"]


def test_a_row_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match=r"row \[1, 2\] has 2 cells, the header 3"):
        markdown_table(["a", "b", "c"], [[1, 2, 3], [1, 2]])
    with pytest.raises(ValueError, match="has 4 cells, the header 3"):
        markdown_table(["a", "b", "c"], [[1, 2, 3, 4]])


def test_an_align_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match="align 'lr': one letter l or r a column, and the header has 3"):
        markdown_table(["a", "b", "c"], [], align="lr")
    with pytest.raises(ValueError, match="align 'lc'"):
        markdown_table(["a", "b"], [], align="lc")
