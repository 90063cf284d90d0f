"""tools/benchinput.py - the files given to `bench.py store`, read: a folder
(the stick's results/) as its *.log files, a serial log with tools/benchlog (every output= level), a photo or screenshot of the
screen's QR code or the code's text ('bench1 ...') with tools/benchqr, which
gives the same log object holding the figures the text carries. The codes
of all the photos and texts given are grouped by run, so that one run's
parts may be in several photos and one photo may hold several runs' codes.
"""
import os

import benchdb
import benchlog
import benchqr

# The kernel's files in results/ of the stick it booted from (lib/resultname.h):
# <run ID>.log when written and read back, <run ID>.part while the write is
# under way (left so when it did not finish). Case aside: a FAT reader may
# show the 8.3 alias in capitals.
LOG_SUFFIX, PART_SUFFIX = ".log", ".part"

def read_for_store(path):
    """(parsed log, format name) for tools/benchdb.py store(), chosen by the
    file's first bytes: a serial log is read with tools/benchlog (every
    output= level); a photo or screenshot of the screen's QR code, or the
    code's text ('bench1 ...'), with tools/benchqr.py, which gives the same
    log object holding the figures the text carries. A code of several
    parts needs every part: store_groups() joins the files of one run."""
    kind = benchqr.file_kind(path)
    if kind is None:
        return benchlog.load(path), "serial log"
    try:
        return benchqr.load(path), "QR code text" if kind == "text" else "QR code photo"
    except benchqr.QrError as e:
        raise benchdb.Refused(str(e))


def expand_folders(paths):
    """(files, incomplete): paths with each folder (the stick's results/)
    replaced by its *.log files, sorted by name, and the *.part files of
    those folders (runs whose write did not finish: not to be stored). A
    folder with neither stays in files, for store_groups to refuse."""
    files, incomplete = [], []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        names = [n for n in sorted(os.listdir(path)) if os.path.isfile(os.path.join(path, n))]
        logs = [os.path.join(path, n) for n in names if n.lower().endswith(LOG_SUFFIX)]
        parts = [os.path.join(path, n) for n in names if n.lower().endswith(PART_SUFFIX)]
        files += logs or ([] if parts else [path])
        incomplete += parts
    return files, incomplete


def store_groups(paths):
    """The runs to store, in the order given: [(label path, [paths], log or
    Refused, format)]. Serial logs are one run each; the QR codes of all the
    photos and texts are grouped by run (their CRC), so one run's parts may
    be in several photos and one photo may hold several runs' codes."""
    out, qr_at, codes = [], None, []
    for path in paths:
        if not os.path.isfile(path):
            why = "a folder with no run logs (*.log) in it" if os.path.isdir(path) else "no such file"
            out.append((path, [path], benchdb.Refused(why), None))
            continue
        kind = benchqr.file_kind(path)
        if kind is None:
            try:
                log, fmt = read_for_store(path)
                out.append((path, [path], log, fmt))
            except benchdb.Refused as e:
                out.append((path, [path], e, None))
            continue
        try:
            found = benchqr.read_texts(path)
        except benchqr.QrError as e:
            out.append((path, [path], benchdb.Refused(str(e)), None))
            continue
        if qr_at is None:
            qr_at = len(out)
            out.append(None)
        codes += [(path, kind, t) for t in found]
    if qr_at is not None:
        runs = benchqr.group(codes)
        out[qr_at:qr_at + 1] = [(files[0], files, benchqr.from_texts(texts, path=", ".join(files)),
                                 "QR code text" if all(k == "text" for k in kinds) else "QR code photo")
                                for files, kinds, texts in runs] or \
            [(codes[0][0] if codes else "?", [c[0] for c in codes],
              benchdb.Refused("no bench1 QR code in the photos or texts"), None)]
    return out
