"""`textguard wordnet install|status`: set up the offline WordNet lexicon (issue 6)."""

from __future__ import annotations

import argparse
import sys


def cmd_install(args: argparse.Namespace) -> int:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..meanings.wordnet_install import WordNetError, install_wordnet

    wndb = tuple(args.wndb) if args.wndb else ("/usr/share/wordnet",)
    try:
        info = install_wordnet(
            lexicon=args.lexicon,
            from_path=args.from_path,
            wndb_dirs=wndb,
            allow_download=not args.no_download,
            apt=not getattr(args, "no_apt", False),
            log=lambda msg: print(msg, file=sys.stderr),
        )
    except WordNetError as exc:
        print(f"textguard wordnet install: {exc}", file=sys.stderr)
        return 1
    print(f"{info.spec}\t{info.source}\t{info.synsets} synsets")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..meanings.wordnet_install import WordNetError, wn_data_dir, wordnet_status

    try:
        info = wordnet_status()
    except WordNetError as exc:
        print(f"textguard wordnet status: {exc}", file=sys.stderr)
        return 1
    if info is None:
        print(f"no WordNet lexicon installed in {wn_data_dir()}: run `textguard wordnet install`")
        return 1
    print(f"data directory: {wn_data_dir()}")
    print(info.summary())
    return 0 if info.synsets else 1


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    w = subparsers.add_parser(
        "wordnet",
        help="install or inspect the offline WordNet lexicon",
        description="Install (`install`) or show (`status`) the WordNet lexicon that resolved_meanings looks "
        "English nouns up in. Nothing downloads it at run time: install it once.",
        epilog="""examples:
  textguard wordnet install                         # Debian's wordnet-base if present, else the best offline choice
  textguard wordnet status""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    wsub = w.add_subparsers(dest="wordnet_command", required=True)
    i = wsub.add_parser(
        "install",
        help="use an installed lexicon, else --from, else a WNDB directory (/usr/share/wordnet; apt-get "
        "installs Debian's wordnet-base there when root), "
        "else wn.download of the newest oewn, else the small shipped lexicon",
        description="Set up the WordNet lexicon, trying in turn: one already installed, --from, a WNDB directory "
        "(/usr/share/wordnet; as root with apt-get it installs Debian's wordnet-base there), a download of the "
        "newest Open English WordNet (unless --no-download), and last the small lexicon shipped with the project.",
        epilog="""examples:
  textguard wordnet install                         # what `make run` does
  textguard wordnet install --from english-wordnet-2024.xml.gz --no-download""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    i.add_argument("--lexicon", metavar="SPEC", help="wn lexicon specifier to use or download, e.g. oewn:2024")
    i.add_argument(
        "--from",
        dest="from_path",
        metavar="PATH",
        help="a WN-LMF file (.xml or .xml.gz) or a WNDB directory to install",
    )
    i.add_argument(
        "--wndb",
        action="append",
        metavar="DIR",
        help="WNDB directory to look for (repeatable; default /usr/share/wordnet)",
    )
    i.add_argument("--no-download", action="store_true", help="never try wn.download (also: TEXTGUARD_WN_DOWNLOAD=0)")
    i.add_argument(
        "--no-apt",
        action="store_true",
        help="never run apt-get for wordnet-base (also: TEXTGUARD_WN_APT=0); by default it runs "
        "when /usr/share/wordnet is missing and we are root with apt-get",
    )
    i.set_defaults(func=cmd_install)
    s = wsub.add_parser(
        "status",
        help="show the lexicon in use and its counts",
        description="Show the WordNet lexicon in use, where it lives and how many synsets, senses and words it has.",
        epilog="example:\n  textguard wordnet status",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.set_defaults(func=cmd_status)
