#!/usr/bin/env python3
"""Checks the realistic programs, two ways.

`plain` (the default) checks the programs' own test code without the macro. For each program (tests/programs/NAME.rs, or tests/program_NAME.rs once wired in) this removes the `#[differentiate...]` attributes
(one line each), adds the stand-ins in tests/programs/shims/NAME.rs for the generated
`_grad`/`_jacobian` items (closed forms where the program has one, otherwise plain central
differences with a small step, independent of the Richardson helper the tests use), writes
the result to tests/plain_NAME.rs, runs its tests (and clippy with -D warnings), and
removes the copy. A program that passes here has a working primal, plain copy, data,
finite-difference reference and test plumbing, so once the macro compiles it, a failure
is the macro's.

Shim files are Rust with optional section lines: `//@ in mod NAME` puts what follows
inside the program's `mod NAME { .. }` (a module cannot be reopened from outside);
`//@ top` puts it at the end of the file. Every shim also gets shims/common.rs.

`today` compiles each program as written (with the attributes), as tests/NAME.rs, and
prints its first compile error (rustc's short format) or, if it compiles, runs its tests
and clippy (`-D warnings`, as CI does) and prints the first lint.

Usage: python3 tests/programs/check.py [plain|today] [--no-clippy] [NAME ...]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(ROOT, "tests", "programs")
ATTR = re.compile(r"^\s*#\[differentiate(\(.*\))?\]\s*$")


def source(name):
    """The program's file: waiting in tests/programs/, or wired in as tests/program_NAME.rs."""
    waiting = os.path.join(PROGRAMS, name + ".rs")
    if os.path.exists(waiting):
        return waiting
    return os.path.join(ROOT, "tests", "program_" + name + ".rs")


def close_of(lines, start):
    """Index of the line closing the block opened on line `start` (brace counting)."""
    depth = 0
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        if depth == 0 and i > start:
            return i
    raise SystemExit(f"no closing brace for line {start + 1}")


def build(name):
    lines = open(source(name)).read().split("\n")
    lines = [l for l in lines if not ATTR.match(l)]
    sections = {"top": []}
    current = "top"
    shim_text = open(os.path.join(PROGRAMS, "shims", name + ".rs")).read()
    for l in shim_text.split("\n"):
        m = re.match(r"^//@ (top|in mod (\w+))\s*$", l)
        if m:
            current = m.group(2) or "top"
            sections.setdefault(current, [])
        else:
            sections[current].append(l)
    for module, body in sections.items():
        if module == "top":
            continue
        start = next(
            i for i, l in enumerate(lines) if re.match(rf"^\s*(pub )?mod {module} \{{", l)
        )
        end = close_of(lines, start)
        lines[end:end] = body
    common = open(os.path.join(PROGRAMS, "shims", "common.rs")).read()
    header = "#![allow(dead_code, unused_imports, unused_macros)]\n"
    return header + "\n".join(lines + sections["top"]) + "\n" + common


def today(names, env):
    for name in names:
        path = os.path.join(ROOT, "tests", name + ".rs")
        with open(source(name)) as src, open(path, "w") as dst:
            dst.write(src.read())
        try:
            cmd = ["cargo", "test", "--no-run", "--test", name, "--message-format", "short"]
            out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
            errors = [l for l in out.stderr.split("\n") if ": error" in l]
            if out.returncode != 0:
                print(f"{name}: {len(errors)} errors; first: {errors[0] if errors else out.stderr}")
            else:
                run = subprocess.run(["cargo", "test", "-q", "--test", name], cwd=ROOT, env=env,
                                     capture_output=True, text=True)
                cmd = ["cargo", "clippy", "--test", name, "--message-format", "short", "--",
                       "-D", "warnings"]
                lint = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
                lints = [l for l in lint.stderr.split("\n") if ": error" in l]
                print(f"{name}: compiles; tests {'pass' if run.returncode == 0 else 'FAIL'}; "
                      f"clippy -D warnings: {lints[0] if lints else 'clean'}")
                if run.returncode != 0:
                    print(run.stdout[-3000:])
        finally:
            os.remove(path)


def main():
    args = sys.argv[1:]
    clippy = "--no-clippy" not in args
    mode = "plain"
    if args and args[0] in ("plain", "today"):
        mode = args.pop(0)
    names = [a for a in args if not a.startswith("--")]
    if not names:
        names = sorted(
            f[:-3]
            for f in os.listdir(os.path.join(PROGRAMS, "shims"))
            if f.endswith(".rs") and f != "common.rs"
        )
    env = dict(os.environ, CARGO_BUILD_JOBS="2")
    if mode == "today":
        return today(names, env)
    failed = []
    for name in names:
        target = "plain_" + name
        path = os.path.join(ROOT, "tests", target + ".rs")
        with open(path, "w") as f:
            f.write(build(name))
        try:
            ok = subprocess.run(["cargo", "test", "-q", "--test", target], cwd=ROOT, env=env).returncode == 0
            if ok and clippy:
                cmd = ["cargo", "clippy", "-q", "--test", target, "--", "-D", "warnings"]
                ok = subprocess.run(cmd, cwd=ROOT, env=env).returncode == 0
        finally:
            os.remove(path)
        print(f"{name}: {'ok' if ok else 'FAILED'}", flush=True)
        if not ok:
            failed.append(name)
    if failed:
        raise SystemExit("failed: " + " ".join(failed))


if __name__ == "__main__":
    main()
