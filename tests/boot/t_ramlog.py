"""tests/boot/t_ramlog.py - the serial log kept in RAM as it is printed
(issue 23 groundwork; kernel/console.h console_log_line, lib/logbuf.h):
the "log:" line before the final line gives the size and CRC-32 of the
bytes the serial port carried before it, "\\r\\n" line ends included, and
they must equal the serial log QEMU captured, byte for byte. Under
-icount; a boot of QEMU's -kernel (multiboot1) prints nothing on the port
before the kernel's first line."""
import re
import zlib

from qemu import check, expect_complete, qemu

LOG_LINE = re.compile(r"log: (\d+) bytes before this line, CRC-32 0x([0-9a-f]{8}), (all kept in RAM|"
                      r"(\d+) kept in RAM, (\d+) NOT kept \(the buffer is full\)) \(buffer (\d+) bytes; ")


def test_ramlog_matches_serial():
    rc, text = qemu("ramlog", "icount", "ensembles=2 samples=20 workloads=add_chain_64")
    expect_complete(rc, text)
    wire = text.encode("utf-8")
    at = wire.find(b"\nlog: ") + 1
    check(at > 0, "no log: line", text)
    m = LOG_LINE.match(wire[at:].decode())
    check(m is not None, "the log: line does not read as kernel/console.h says", text)
    before = wire[:at]
    check(before.startswith(b"bench ") and b"interrupts off" in before.split(b"\r\n", 1)[0],
          "the port carried something before the kernel's first line (the banner)", text)
    check(int(m.group(1)) == len(before),
          f"the log: line says {m.group(1)} bytes; the serial log has {len(before)} before it", text)
    check(int(m.group(2), 16) == zlib.crc32(before),
          f"the log: line's CRC-32 0x{m.group(2)} is not the serial log's 0x{zlib.crc32(before):08x}", text)
    check(m.group(3) == "all kept in RAM", "a short run's log must fit its RAM buffer", text)
    check(int(m.group(6)) >= len(before), "the buffer is smaller than the log it kept whole", text)
    final = wire[at:].split(b"\r\n")[1]
    check(final.startswith(b"bench: run complete:"), "the log: line is not right before the final line", text)
