#!/usr/bin/python3
"""Picks, runs and compares clFFT 2.12.2's gtest tests on Debian's clFFT and on fftx; scripts/clfft-suite
fetches and builds the suite, then runs this.

usage: clfft_suite.py --work DIR --test TEST --fftx-dir DIR [--sample N | --all] [--filter GTEST_FILTER]

Writes into the work dir: tests.txt (the tests run), log_clfft.txt and log_fftx.txt (the suite's whole output),
results_clfft.json and results_fftx.json (status, time and output of each test) and report.txt (the output of
each test that passes on clFFT and fails on fftx, in full). Prints one line per such test, then a summary.
Exits 1 when one of them is not a known difference (KNOWN below), 0 otherwise."""
import argparse
import collections
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time

# Tests that pass on clFFT and fail on fftx by design: fftx accepts what clFFT refuses as not implemented.
KNOWN = {
    'clfft_UnitTest.setPlanDimLength_should_fail_on_radices_that_have_non_supported_factors':
        'fftx transforms every length; clFFT answers CLFFT_NOTIMPLEMENTED for lengths with other prime factors',
    'clfft_UnitTest.createDefaultPlan_should_fail_when_passed_unsupported_length':
        'fftx transforms every length; clFFT answers CLFFT_NOTIMPLEMENTED for lengths with other prime factors',
    'clfft_UnitTest.bake_plan_should_fail_to_bake_multi_GPU_plan':
        'fftx bakes for several queues; clFFT answers CLFFT_NOTIMPLEMENTED',
    'clfft_UnitTest.bake_plan_should_fail_on_non_null_function_pointer':
        'fftx bakes with a notify function; clFFT answers CLFFT_NOTIMPLEMENTED',
    'clfft_UnitTest.bake_plan_should_fail_on_non_null_user_data':
        'fftx bakes with user data for the notify function; clFFT answers CLFFT_NOTIMPLEMENTED',
    'clfft_UnitTest.enqueue_transform_should_fail_with_num_queues_and_events_greater_than_1':
        'the test passes 2 queues and null buffers: fftx checks the buffers first (CLFFT_INVALID_ARG_VALUE), '
        'clFFT the queue count (CLFFT_NOTIMPLEMENTED)',
}

ARGS = ['-c', '--noInfoCL', '--noVersion', '--seed', '12345']  # CPU device, quiet, fixed random tests
CHUNK = 30  # tests per process; after a crash or a timeout, the rest of the chunk runs in the next one
TIMEOUT = float(os.environ.get('CLFFT_SUITE_TIMEOUT', 240))


def list_tests(test, gtest_filter):
    """(case, name, parameter) of each test the binary lists, save DISABLED_ ones (gtest never runs them)."""
    cmd = [test] + ARGS + ['--gtest_list_tests']
    if gtest_filter:
        cmd.append('--gtest_filter=' + gtest_filter)
    tests, case = [], None
    for line in subprocess.run(cmd, stdout=subprocess.PIPE, check=True, text=True).stdout.splitlines():
        if not line.strip():
            continue
        if not line.startswith(' '):
            case = line.split()[0]
            continue
        m = re.match(r'\s+(\S+)(?:\s+# GetParam\(\) = (.*))?', line)
        if 'DISABLED_' not in case + m.group(1):
            tests.append((case, m.group(1), m.group(2) or ''))
    return tests


def spread(items, k):
    """k items evenly spaced over items (all of them when k is not smaller)."""
    if k >= len(items):
        return list(items)
    return [items[int(i * len(items) / k)] for i in range(k)]


def default_sample(tests):
    """The default sample, about 400 tests: every unit and buffer test, every in-place real transform, and
    an even spread over the other cases that favours small sizes, so that it runs in about 20-25 minutes."""
    full = lambda t: t[0] + t[1]
    chosen = collections.OrderedDict()
    add = lambda t: chosen.setdefault(full(t), True)
    unit_cases = ('clfft_UnitTest.', 'test_harness_tests_buffer.')
    for t in tests:
        if t[0] in unit_cases:
            add(t)
    for t in tests:
        n = full(t)
        if 'in_place' in n and ('real' in n or 'hermitian' in n):
            add(t)

    def ints(param):
        """A gtest parameter printed as '16-byte object <07-00 00-00 ...>', as little-endian 32-bit ints."""
        m = re.search(r'<([0-9A-F -]+)', param)
        b = bytes(int(x, 16) for x in re.split(r'[- ]+', m.group(1).strip()) if x)
        return [int.from_bytes(b[i:i + 4], 'little') for i in range(0, len(b) - 3, 4)]

    by_case = collections.OrderedDict()
    for t in tests:
        by_case.setdefault(t[0], []).append(t)
    big = re.compile(r'(^|_)(large|huge|len65536|astoundingly)|4M')
    for case, cases in by_case.items():
        if case in unit_cases:
            continue
        if case.startswith('accuracy_test_pow') or case.startswith('accuracy_test_mixed_'):
            pool = [t for t in cases if not big.search(t[1]) and full(t) not in chosen]
            for t in spread(pool, len(pool) if case.startswith('accuracy_test_mixed_') else 10):
                add(t)
        elif case == 'mixed_radices/mixed_radix.':
            kinds = collections.OrderedDict()
            for t in cases:
                kinds.setdefault(t[1].split('/')[0], []).append(t)
            for kind in kinds.values():
                for t in spread(sorted([t for t in kind if int(t[2]) <= 1024], key=lambda t: int(t[2])), 4):
                    add(t)
        elif case.startswith('clfft_pow7_AllInpSizeTest'):
            small = [t for t in cases if ints(t[2])[0] * ints(t[2])[1] * ints(t[2])[2] <= 7 ** 6]
            for t in spread(small, 8):
                add(t)
        elif case.startswith('clfft_DirectedTest_Random') or case.startswith('clfft_DirectedTest_pow2'):
            add(cases[0])  # batches of millions of elements: one test each
        elif case.startswith('clfft_DirectedTest_'):
            # The i-th parameter is the i-th supported length, ascending: spread over the small ones.
            limit, k = (40, 3) if '_3d_' in case else (100, 3) if '_2d_' in case else (160, 5)
            for t in spread(cases[:limit], k):
                add(t)
        elif case == 'clfft_RandomTest/accuracy_test_random.':
            for t in cases[:6]:
                add(t)
        else:
            for t in spread(cases, 3):
                add(t)
    return list(chosen)


def run(label, test, names, work, libdir):
    """Runs names in chunks, each test with a watchdog; returns {name: {status, ms, text}}. status is OK,
    FAILED, SKIPPED, TIMEOUT, CRASH(rc=..) or NOT_RUN(rc=..)."""
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    env.pop('FFTX_LOG', None)
    if libdir:
        env['LD_LIBRARY_PATH'] = libdir
        env['FFTX_LOG'] = 'error'
    run_re = re.compile(r'^\[ RUN      \] (\S+)')
    end_re = re.compile(r'^\[ +(OK|FAILED|SKIPPED) +\] (\S+)(?:, where GetParam.*)? \((\d+) ms\)$')
    results, remaining, t0 = {}, list(names), time.time()
    with open(os.path.join(work, 'log_%s.txt' % label), 'w') as log:
        while remaining:
            chunk = remaining[:CHUNK]
            log.write('\n##### %s: %d tests\n' % (label, len(chunk)))
            p = subprocess.Popen([test] + ARGS + ['--gtest_filter=' + ':'.join(chunk)], cwd=work, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
            lines = queue.Queue()

            def read():
                for raw in p.stdout:
                    lines.put(raw.decode('utf-8', 'replace').rstrip('\n'))
                lines.put(None)
            threading.Thread(target=read, daemon=True).start()
            current, started, output, done, timed_out = None, time.time(), [], set(), False
            while True:
                try:
                    line = lines.get(timeout=1.0)
                except queue.Empty:
                    # The clock runs from the test's start, or from the process's until a test starts.
                    if not timed_out and time.time() - started > TIMEOUT:
                        os.killpg(p.pid, 9)
                        timed_out = True
                        log.write('##### killed after %.0f s in %s\n' % (TIMEOUT, current or 'start-up'))
                    continue
                if line is None:
                    break
                log.write(line + '\n')
                m = run_re.match(line)
                if m:
                    current, started, output = m.group(1), time.time(), []
                    continue
                m = end_re.match(line)
                if m and current and m.group(2) == current:
                    results[current] = dict(status=m.group(1), ms=int(m.group(3)), text='\n'.join(output))
                    done.add(current)
                    current, started = None, time.time()
                    continue
                if current:
                    output.append(line)
            rc = p.wait()
            if current:  # started and never ended: killed by the watchdog, or crashed
                results[current] = dict(status='TIMEOUT' if timed_out else 'CRASH(rc=%d)' % rc,
                                        ms=int((time.time() - started) * 1000), text='\n'.join(output[-60:]))
                done.add(current)
            if not done:  # nothing started: the first test counts as failed, so that the run goes on
                results[chunk[0]] = dict(status='NOT_RUN(rc=%d)' % rc, ms=0, text='')
            remaining = [n for n in remaining if n not in results]
            sys.stderr.write('[%s] %d/%d done, %.0f s\n' % (label, len(results), len(names), time.time() - t0))
    with open(os.path.join(work, 'results_%s.json' % label), 'w') as f:
        json.dump(results, f, indent=1)
    return results


def failure_line(r):
    """A test's failure on one line: its status and its first gtest failure, with the number of others."""
    lines = [l.strip() for l in r['text'].splitlines()
             if l.strip() and not l.startswith('fftx[') and 'warning generated' not in l]
    starts = [i for i, l in enumerate(lines) if l.endswith(': Failure')]
    if starts:
        end = starts[1] if len(starts) > 1 else len(lines)
        first = ' '.join(lines[starts[0]:end])
        more = ' (and %d more failures)' % (len(starts) - 1) if len(starts) > 1 else ''
    else:  # a crash or a timeout: its last lines
        first, more = ' | '.join(lines[-3:]) or '(no output)', ''
    return '%s: %s%s' % (r['status'], re.sub(r'\s+', ' ', first), more)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--work', required=True)
    ap.add_argument('--test', required=True, help='the suite binary (Test)')
    ap.add_argument('--fftx-dir', required=True, help='a folder with libclFFT.so.2 as fftx')
    pick = ap.add_mutually_exclusive_group()
    pick.add_argument('--sample', type=int, metavar='N')
    pick.add_argument('--all', action='store_true')
    ap.add_argument('--filter', metavar='GTEST_FILTER')
    a = ap.parse_args()
    work, test, fftx_dir = (os.path.abspath(p) for p in (a.work, a.test, a.fftx_dir))

    tests = list_tests(test, a.filter)
    names = [t[0] + t[1] for t in tests] if a.all or a.filter else default_sample(tests)
    if a.sample is not None:
        names = spread(names, a.sample)
    if not names:
        sys.exit('no test matches')
    with open(os.path.join(work, 'tests.txt'), 'w') as f:
        f.write(''.join(n + '\n' for n in names))
    print('running %d tests on clFFT, then on fftx (%d s at most each)' % (len(names), TIMEOUT), flush=True)

    clfft = run('clfft', test, names, work, '')
    fftx = run('fftx', test, names, work, fftx_dir)

    passed = lambda r: sum(v['status'] == 'OK' for v in r.values())
    lost = [n for n in names if clfft[n]['status'] == 'OK' and fftx[n]['status'] != 'OK']
    unknown = [n for n in lost if n not in KNOWN]
    with open(os.path.join(work, 'report.txt'), 'w') as f:
        for n in lost:
            f.write('--- %s (%s)%s\n%s\n' % (n, fftx[n]['status'], ' known: ' + KNOWN[n] if n in KNOWN else '',
                                            fftx[n]['text']))
    for n in lost:
        print('%s: %s%s' % (n, failure_line(fftx[n]), ' [known difference: %s]' % KNOWN[n] if n in KNOWN else ''))
    print('clFFT: %d passed, %d failed; fftx: %d passed, %d failed; %d pass on clFFT and fail on fftx'
          % (passed(clfft), len(names) - passed(clfft), passed(fftx), len(names) - passed(fftx), len(lost)))
    print('%d of them are known differences, %d are not; details in %s'
          % (len(lost) - len(unknown), len(unknown), os.path.join(work, 'report.txt')))
    sys.exit(1 if unknown else 0)


if __name__ == '__main__':
    main()
