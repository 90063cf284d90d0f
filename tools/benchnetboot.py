#!/usr/bin/env python3
"""tools/benchnetboot.py - the GRUB configuration of `make netboot`'s TFTP
root (iso/netboot.mk): iso/grub.cfg after a header that gives every entry's
kernel the network's own words, first of all send= to the collector on the
server each machine booted from (README "Sending the results", docs/LAB.md
"A rack: results over the network").

    benchnetboot.py GRUB_CFG OUT [--port N] [--token T] [--send URL|off] [--words WORDS]

The header sets GRUB's variable bench_netboot, which iso/grub.cfg's
functions put before each entry's own words (a word typed in GRUB's editor
still wins: the kernel takes a key's last value):

  - send=http://${net_default_server}:PORT/[?token=T]: GRUB sets
    net_default_server from the DHCP answer it booted with (the next-server,
    the TFTP server: the machine that served the root, where `bench.py serve
    --port PORT [--token T]` runs); the word is left out when GRUB has no
    such server, and the kernel then sends to the PXE server it finds
    itself (kernel/efinet.h);
  - --send URL instead names one collector for every machine (another
    host), --send off sends nothing;
  - --words: more boot parameters for every entry, e.g. after=reboot for a
    row of machines that run again and again.

Exit status 0, or 2 with one line naming what is wrong (a port outside
1-65535, a token with characters a URL's query or GRUB's quoting cannot
carry as they are, a word GRUB would read as something else)."""
import argparse
import re
import sys

TOKEN_RE = re.compile(r"[A-Za-z0-9._~-]{1,63}")
# What a word may hold: GRUB's double quotes keep all but $, " and \, and
# the kernel's words are printable ASCII without spaces.
WORD_RE = re.compile(r'[!#%&\'()*+,./0-9:;<=>?@A-Z\[\]^_`a-z{|}~-]+')
URL_RE = re.compile(r"http://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[!#%&'()*+,./0-9:;<=>?@A-Z\[\]^_`a-z{|}~-]*)?")


class Problem(Exception):
    pass


def header(port=8080, token=None, send=None, words=""):
    """The lines before iso/grub.cfg: GRUB script setting and exporting
    bench_netboot. Raises Problem naming what is wrong."""
    if not 1 <= port <= 65535:
        raise Problem(f"--port {port}: a TCP port is 1 to 65535")
    if token is not None and not TOKEN_RE.fullmatch(token):
        raise Problem(f"--token {token!r}: 1 to 63 of A-Z a-z 0-9 . _ ~ - (what a URL's query carries as it is)")
    extra = words.split()
    for w in extra:
        if not WORD_RE.fullmatch(w):
            raise Problem(f"--words: {w!r} holds a character GRUB's double quotes would not keep ($, \" or \\) "
                          "or one the kernel's words never hold")
        if w.startswith("send="):
            raise Problem(f"--words: {w!r}: give the collector with --send (or --port and --token)")
    query = f"?token={token}" if token else ""
    lines = ["# Written by `make netboot` (tools/benchnetboot.py) before iso/grub.cfg, which",
             "# follows: every entry's kernel gets the words of bench_netboot before its",
             "# own (a key typed in GRUB's editor wins). README \"Sending the results\",",
             "# docs/LAB.md \"A rack: results over the network\". Edit them here."]
    rest = " ".join(extra)
    if send == "off":
        lines += ["# send=off: the runs send nothing (the kernel would send to the PXE server).",
                  f'set bench_netboot="{" ".join(["send=off"] + extra)}"']
    elif send is not None:
        if not URL_RE.fullmatch(send):
            raise Problem(f"--send {send!r}: http://HOST[:PORT][/PATH][?token=T], or off")
        lines += ["# send=: the one collector every machine sends its runs to.",
                  f'set bench_netboot="{" ".join([f"send={send}"] + extra)}"']
    else:
        lines += ["# send=: the collector on the server this machine booted from: GRUB's",
                  "# net_default_server, the DHCP answer's next-server (the TFTP server).",
                  "# Without one, the word is left out and the kernel sends to the PXE",
                  "# server it finds itself.",
                  f'set bench_netboot="{rest}"',
                  'if [ -n "$net_default_server" ]; then',
                  f'\tset bench_netboot="send=http://${{net_default_server}}:{port}/{query}{" " + rest if rest else ""}"',
                  "fi"]
    lines += ["export bench_netboot", ""]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="benchnetboot.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("grub_cfg")
    ap.add_argument("out")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--token")
    ap.add_argument("--send")
    ap.add_argument("--words", default="")
    a = ap.parse_args(argv)
    try:
        head = header(a.port, a.token or None, a.send or None, a.words)
        with open(a.grub_cfg, encoding="ascii") as f:
            cfg = f.read()
        if "$bench_netboot" not in cfg:
            raise Problem(f"{a.grub_cfg} never uses $bench_netboot: its entries would not get the words")
    except (Problem, OSError, UnicodeDecodeError) as e:
        print(f"netboot: {e}", file=sys.stderr)
        return 2
    with open(a.out, "w", encoding="ascii") as f:
        f.write(head + cfg)
    where = (f"http://${{net_default_server}}:{a.port}/ (the server each machine booted from)"
             if a.send is None else a.send)
    print(f"netboot: {a.out}: runs send to {where}" + (", with the token" if a.token else "")
          + (f"; every entry also gets: {a.words.strip()}" if a.words.strip() else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
