"""The validation problems of tsumego train: which of the train split's problems are held back."""
import pytest

from model.validation import validation_problems

# 200 problems of uneven sizes, as solve-all's trees are: a few large, most small
COUNTS = {f"book/{number:03d}": 5 + (number * 37) % 300 for number in range(200)}
COUNTS["book/giant"] = sum(COUNTS.values()) // 2


def share(held, counts=COUNTS) -> float:
    return sum(counts[problem] for problem in held) / sum(counts.values())


def test_whole_problems_holding_about_the_fraction_of_the_records_are_held_back():
    held = validation_problems(COUNTS, 0.1)
    assert held == sorted(held) and set(held) <= set(COUNTS) and 10 <= len(held) <= 40
    assert 0.1 <= share(held) <= 0.2
    # the giant problem, a third of the records, is passed over
    assert "book/giant" not in held
    # by a hash of the ids: the same whatever the order of the dict
    assert validation_problems(dict(reversed(COUNTS.items())), 0.1) == held
    # a larger fraction holds back more
    assert 0.3 <= share(validation_problems(COUNTS, 0.3)) <= 0.6


def test_at_least_one_is_held_back_and_never_all():
    # every problem would take the validation records past twice the share: the smallest alone
    assert validation_problems({"a": 50, "b": 40, "c": 45}, 0.1) == ["b"]
    assert len(validation_problems({"a": 1, "b": 1}, 0.9)) == 1
    assert len(validation_problems({f"p{n}": 1 for n in range(50)}, 0.99)) == 49


def test_a_fraction_of_0_holds_back_none_and_bad_ones_are_refused():
    assert validation_problems(COUNTS, 0) == [] and validation_problems({"alone": 9}, 0) == []
    for fraction in (-0.1, 1, 1.5):
        with pytest.raises(ValueError, match="need 0 <= fraction < 1"):
            validation_problems(COUNTS, fraction)
    with pytest.raises(ValueError, match="holds 1 problem"):
        validation_problems({"alone": 9}, 0.1)
