"""docs/architecture.md quotes the import contracts of .importlinter: the quote is the file's
contracts, option for option (comments aside), so the page cannot drift from what CI checks."""

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _contracts(text: str) -> dict[str, dict[str, str]]:
    parser = configparser.ConfigParser(comment_prefixes=("#",), inline_comment_prefixes=None)
    parser.read_string(text)
    return {name: {key: " ".join(line.strip() for line in value.splitlines()
                                 if line.strip() and not line.strip().startswith("#"))
                   for key, value in parser[name].items()}
            for name in parser.sections() if name.startswith("importlinter:contract:")}


def test_the_architecture_page_quotes_every_import_contract_as_the_file_has_it():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    quoted = "\n".join(re.findall(r"```ini\n(.*?)```", page, flags=re.DOTALL))

    in_file = _contracts((ROOT / ".importlinter").read_text(encoding="utf-8"))

    assert set(in_file) >= {"importlinter:contract:layers",
                            "importlinter:contract:systems-independent",
                            "importlinter:contract:views-private"}
    assert _contracts(quoted) == in_file


def test_the_readme_links_the_architecture_page():
    assert "docs/architecture.md" in (ROOT / "README.md").read_text(encoding="utf-8")
