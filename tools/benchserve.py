"""tools/benchserve.py - bench.py serve: the lab's collector (issue 33;
README "A rack: results over the network"). The application is
tools/benchserveapp.py (WSGI), its page tools/benchservepage.py; this
module runs it on waitress (Debian's python3-waitress, a production WSGI
server) and keeps it serving whatever a client sends:

  - a request waitress refuses before the application sees it (not HTTP:
    400; a header over 64 KiB: 431; a body over --max-bytes: 413; ...)
    gets a JSON answer with "error" (JsonErrorTask) and a log line;
  - a connection closed, or idle for CHANNEL_TIMEOUT seconds, in the middle
    of a request (a slow or a vanished client) is closed and said
    (LoggedChannel), nothing stored;
  - each request the application answers is one line (benchserveapp).

Every line goes to standard error, 'serve: ' and the UTC time first.
"""
import signal
import sys
import threading
import time

import benchserveapp

DEFAULT_PORT = 8080          # send='s default port (kernel side, issue 33)
DEFAULT_BIND = "0.0.0.0"
CHANNEL_TIMEOUT = 30         # [s] a connection idle this long, even mid-request, is closed
CLEANUP_INTERVAL = 5         # [s] how often waitress looks for idle connections (closed 30 to 35 s idle)
MAX_HEADER_BYTES = 64 << 10  # [bytes] a request's header over it: 431
THREADS = 8                  # waitress's worker threads (stores are one at a time anyway)

_say_lock = threading.Lock()


def say(line):
    """One line on standard error: 'serve: <UTC time> <line>'."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with _say_lock:
        sys.stderr.write(f"serve: {stamp} {line}\n")
        sys.stderr.flush()


def make_server(app, bind, port):
    """waitress's server of app on bind:port (port 0: a free one, its
    effective_port), refusing as the module docstring says."""
    from waitress.channel import HTTPChannel
    from waitress.server import create_server
    from waitress.task import ErrorTask

    class JsonErrorTask(ErrorTask):
        """waitress's error answer (waitress/utilities.py Error: code,
        reason, body) as JSON with "error", and a log line."""

        def execute(self):
            e = self.request.error
            declared = self.request.content_length
            why = (f"the body{f' ({declared} bytes)' if declared else ''} is over the size limit of "
                   f"{benchserveapp.size_text(app.max_bytes)}: nothing stored" if e.code == 413 else e.body)
            body = benchserveapp.answer_json({"error": f"{e.reason}: {why}"})
            self.status = f"{e.code} {e.reason}"
            self.response_headers += [("Content-Type", "application/json"), ("Connection", "close")]
            self.close_on_finish = True
            self.content_length = len(body)
            self.write(body)
            say(f"{peer(self.channel)} refused before the application: {e.code} {e.reason}: {why}")

    class LoggedChannel(HTTPChannel):
        error_task_class = JsonErrorTask

        def handle_close(self):
            r = self.request
            if r is not None and not r.completed and (r.header_plus or r.headers_finished):
                got = (f"{r.body_bytes_received} of its {r.content_length} body bytes received" if r.headers_finished
                       else f"its header unfinished after {len(r.header_plus)} bytes")
                say(f"{peer(self)} closed in the middle of a request ({got}; the client left, or sent nothing for "
                    f"{CHANNEL_TIMEOUT} s or more): nothing stored")
            super().handle_close()

    server = create_server(app, host=bind, port=port, threads=THREADS, channel_timeout=CHANNEL_TIMEOUT,
                           cleanup_interval=CLEANUP_INTERVAL,
                           max_request_header_size=MAX_HEADER_BYTES,
                           max_request_body_size=app.max_bytes + 1,  # waitress refuses from this size on
                           ident="bench collector", expose_tracebacks=False)
    server.channel_class = LoggedChannel
    return server


def peer(channel):
    a = channel.addr
    return f"{a[0]}:{a[1]}" if isinstance(a, tuple) and len(a) >= 2 else str(a)


def main(args):
    """bench.py serve: serve until interrupted (SIGINT, SIGTERM: a line
    says so, exit 0); 1 when it cannot start (the database, the address),
    said in one line."""
    import benchdb
    try:
        app = benchserveapp.Collector(args.db, token=args.token, max_bytes=args.max_bytes, say=say)
    except (benchdb.DbError, OSError) as e:
        print(f"bench.py serve: {e}", file=sys.stderr)
        return 1
    try:
        server = make_server(app, args.bind, args.port)
    except OSError as e:
        print(f"bench.py serve: cannot listen on {args.bind}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    say(f"listening on http://{args.bind}:{server.effective_port}/ (the page at /, the runs' JSON at /runs); "
        f"storing into {args.db}, the logs received in {app.logs}/; bodies up to "
        f"{benchserveapp.size_text(args.max_bytes)}; "
        + ("a token required (?token=T or Authorization: Bearer T)" if args.token else "no token required"))
    got = []

    def stop(signum, frame):
        got.append(signal.Signals(signum).name)
        raise KeyboardInterrupt  # waitress's run() ends its loop on it
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.run()
    say(f"stopped ({', '.join(got) or 'the server loop ended'})")
    return 0
