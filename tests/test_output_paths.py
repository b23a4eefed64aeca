"""Output paths are checked before any work: one line naming the option and the path, exit code 2."""
import pytest

from cli.main import main
from tests.toy_network import PROBLEM_FILES, packed_for_current_planes


def folder_commands(tmp_path) -> dict[str, list[str]]:
    """Each command writing a folder, with inputs that exist, and ``--out`` last."""
    (tmp_path / "inputs").mkdir()
    some = str(tmp_path / "inputs")
    return {"solve-all": ["solve-all", "--problems", some, "--no-progress", "--out"],
            "features": ["features", "--subproblems", some, "--no-progress", "--out"],
            "train": ["train", "--data", some, "--out"],
            "crossval": ["crossval", "--data", some, "--out"],
            "report": ["report", "--model", some, "--out"]}


def refused(capsys, command: list[str]) -> str:
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = err.splitlines()
    return line


@pytest.mark.parametrize("name", ["solve-all", "features", "train", "crossval", "report"])
def test_a_file_where_the_output_folder_goes_is_refused(tmp_path, capsys, name):
    taken = tmp_path / "taken"
    taken.write_text("mine")
    command = folder_commands(tmp_path)[name]
    assert refused(capsys, [*command, str(taken)]) == f"error: --out {taken}: a file, not a folder"
    assert refused(capsys, [*command, str(taken / "out")]) == (
        f"error: --out {taken / 'out'}: {taken} is a file, not a folder")
    assert taken.read_text() == "mine"


def test_solve_all_refuses_an_output_inside_its_problems_or_around_them(tmp_path, capsys):
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "one.sgf").write_text("(;SZ[9]AB[aa]AW[bb]MA[bb]PL[B])")
    for out, read in ((problems / "out", problems), (problems, problems), (tmp_path, problems)):
        line = refused(capsys, ["solve-all", "--problems", str(read), "--out", str(out), "--no-progress"])
        assert line == (f"error: --out {out} and --problems {read} overlap: the run would read its own "
                        "subproblems and trees back as problems")
    assert [path.name for path in problems.iterdir()] == ["one.sgf"]


def test_quantize_refuses_a_folder_for_its_packed_file(tmp_path, capsys):
    assert refused(capsys, ["quantize", "--model", str(tmp_path / "model"), "--out", str(tmp_path)]) == (
        f"error: --out {tmp_path}: a folder, not a file")


def test_eval_creates_the_pictures_folder_and_overwrites_a_picture_only_with_force(tmp_path, capsys):
    packed_for_current_planes(tmp_path / "net.tsq")
    picture = tmp_path / "new" / "folder" / "board.svg"
    command = ["eval", "--model", str(tmp_path / "net.tsq"), "--picture", str(picture), PROBLEM_FILES[0]]
    assert main(command) == 0
    assert picture.read_text().lstrip().startswith("<?xml")
    picture.write_text("mine")
    capsys.readouterr()
    assert refused(capsys, command) == f"error: --picture {picture}: the file exists (--force overwrites it)"
    assert picture.read_text() == "mine"
    assert main([*command, "--force"]) == 0
    assert picture.read_text().lstrip().startswith("<?xml")
    # With several files, every picture's own name is checked before any is drawn.
    several = ["eval", "--model", str(tmp_path / "net.tsq"), "--picture", str(tmp_path / "b.png"), *PROBLEM_FILES]
    second = tmp_path / "b-bulky-five-corner-live.png"
    second.write_text("mine")
    capsys.readouterr()
    assert refused(capsys, several) == f"error: --picture {second}: the file exists (--force overwrites it)"
    assert not (tmp_path / "b-bent-three-corner-kill.png").exists()
