#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Scale-out, end to end: PostgreSQL, two replicas and nginx on loopback
# (scripts/replicas.sh). A chat goes through nginx; the replica running it is
# SIGKILLed mid-answer; the client reattaches through nginx with Last-Event-ID
# and gets the rest: every event id exactly once, one round_restart that
# retracts the interrupted round, the tool of the checkpointed round not run
# again, and the thread in PostgreSQL holding the whole conversation.
# Then a second question, sent with busy_policy "enqueue" to the replica that
# runs the first, waits in the thread's line; that replica is SIGKILLed; the
# other finishes the first answer and then answers the queued question.
#
#   failover.py EXE FAKE SCENARIOS WORK [--runs N] [--json FILE]
#
# With --runs N it repeats the kill N times and reports the failover time
# (SIGKILL to the first event of the new replica) as median and maximum.
import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
PSQL = '/usr/lib/postgresql/15/bin/psql'


def fail(message):
    print('FAIL ' + message, file=sys.stderr)
    sys.exit(1)


class EventStream:
    """A text/event-stream response read event by event (id, event, data)."""

    def __init__(self, url, method='GET', body=None, headers=None, timeout=30):
        u = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
        h = {'Accept': 'text/event-stream'}
        h.update(headers or {})
        if body is not None:
            h['Content-Type'] = 'application/json'
        self.conn.request(method, u.path + ('?' + u.query if u.query else ''), body=body, headers=h)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers

    def events(self):
        event = {}
        while True:
            try:
                line = self.response.readline()
            except (http.client.IncompleteRead, ConnectionError, socket.timeout, OSError):
                return
            if not line:
                return
            line = line.decode('utf-8').rstrip('\r\n')
            if line == '':
                if 'data' in event:
                    yield event
                event = {}
                continue
            if line.startswith(':'):
                continue
            field, _, value = line.partition(':')
            value = value[1:] if value.startswith(' ') else value
            if field == 'data':
                event['data'] = event['data'] + '\n' + value if 'data' in event else value
            elif field in ('id', 'event'):
                event[field] = value

    def close(self):
        self.conn.close()


def psql(uri, sql):
    return subprocess.run([PSQL, '-X', '-At', uri, '-c', sql], check=True, capture_output=True,
                          text=True).stdout.strip()


def start_fake(fake, scenarios, work, interval_ms):
    out = open(os.path.join(work, 'fake.txt'), 'w')
    p = subprocess.Popen([fake, '--scenarios', scenarios, '--port', '0', '--token-interval-ms', str(interval_ms)],
                         stdout=out, stderr=subprocess.STDOUT)
    for _ in range(100):
        text = open(os.path.join(work, 'fake.txt')).read()
        m = re.search(r'http://127\.0\.0\.1:\d+', text)
        if m:
            return p, m.group(0)
        time.sleep(0.1)
    fail('the fake LLM did not start: ' + text)


def read_env(path):
    env = {}
    for line in open(path):
        k, _, v = line.strip().partition('=')
        env[k] = v.strip('"')
    return env


def one_failover(env, work):
    nginx = env['NGINX_URL']
    body = json.dumps({'messages': [{'role': 'user', 'content': '¿Cuántas iniciativas hay en ejecución?'}]})
    first = EventStream(nginx + '/api/v1/agent/chat', 'POST', body)
    if first.status != 200:
        fail('chat through nginx: HTTP %d' % first.status)
    run_id, thread_id = first.headers['X-Run-Id'], first.headers['X-Thread-Id']
    seen, killed_at, chunks_after_tool, tool_seen = [], None, 0, False
    for e in first.events():
        seen.append(e)
        if e.get('event') == 'tool_call':
            tool_seen = True
        elif e.get('event') == 'chunk' and tool_seen:
            chunks_after_tool += 1
            if chunks_after_tool == 3:
                holder = psql(env['PG_URI'], "SELECT lease_holder FROM agentio_runs WHERE id = '%s'" % run_id)
                pid = int(holder.split(':')[1])
                if str(pid) not in env['REPLICA_PIDS'].split():
                    fail('the run is held by %r, not by a replica' % holder)
                os.kill(pid, signal.SIGKILL)
                killed_at = time.monotonic()
                break
        if e.get('event') in ('done', 'error'):
            break
    first.close()
    if killed_at is None:
        fail('the answer ended before the second round streamed: %r' % seen[-1:])

    # Reattach through nginx (it skips the dead replica) after the last event seen.
    rest, first_new = [], None
    last = seen[-1]['id']
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            again = EventStream(nginx + '/api/v1/agent/runs/%s/events' % run_id, headers={'Last-Event-ID': last})
        except OSError:
            time.sleep(0.1)
            continue
        if again.status != 200:
            fail('reattach: HTTP %d' % again.status)
        finished = False
        for e in again.events():
            if first_new is None and e.get('event') == 'round_restart':
                first_new = time.monotonic()
            rest.append(e)
            last = e['id']
            if e.get('event') in ('done', 'error'):
                finished = True
                break
        again.close()
        if finished:
            break
    else:
        fail('the run did not finish within 30 s of the kill')

    events = seen + rest
    ids = [int(e['id']) for e in events]
    if ids != list(range(1, len(ids) + 1)):
        fail('event ids are not 1..N exactly once: %s' % ids)
    restarts = [e for e in events if e.get('event') == 'round_restart']
    if len(restarts) != 1:
        fail('expected one round_restart, got %d' % len(restarts))
    if events[-1].get('event') != 'done' or json.loads(events[-1]['data'])['status'] != 'completed':
        fail('the run did not complete: %r' % events[-1])
    restart = json.loads(restarts[0]['data'])
    discard_after = restart['discard_after']
    tool_ids = [int(e['id']) for e in events if e.get('event') == 'tool_call']
    if tool_ids != [discard_after] or restart['iteration'] != 2:
        fail('the checkpoint should follow the first round\'s tool call: %r, tool calls at %r' % (restart, tool_ids))

    # What a client shows: the retracted events dropped.
    kept, dropping = [], False
    for e in events:
        if e.get('event') == 'round_restart':
            kept = [k for k in kept if int(k['id']) <= discard_after]
            continue
        kept.append(e)
    text = ''.join(json.loads(e['data'])['content'] for e in kept if e.get('event') == 'chunk')
    if '"total_iniciativas":60' not in text:
        fail('the answer after the restart is not complete: %r' % text[-200:])
    if text.count('"total_iniciativas"') != 1:
        fail('the answer shows text twice: %r' % text)

    # The thread in PostgreSQL: question, tool call, tool result, answer.
    items = psql(env['PG_URI'], "SELECT count(*) FROM agentio_thread_items WHERE thread_id = '%s'" % thread_id)
    status = psql(env['PG_URI'], "SELECT status FROM agentio_runs WHERE id = '%s'" % run_id)
    if items != '4' or status != 'completed':
        fail('the stored thread has %s messages, run %s' % (items, status))
    return first_new - killed_at, len(events)


def queued_question_survives(env):
    urls, pids = env['REPLICA_URLS'].split(), env['REPLICA_PIDS'].split()
    ask = lambda text, **more: json.dumps(dict(more, messages=[{'role': 'user', 'content': text}]))
    first = EventStream(urls[0] + '/api/v1/agent/chat', 'POST', ask('¿Cuántas iniciativas hay en ejecución?'))
    if first.status != 200:
        fail('chat on the first replica: HTTP %d' % first.status)
    run_id, thread_id = first.headers['X-Run-Id'], first.headers['X-Thread-Id']
    for e in first.events():
        if e.get('event') == 'chunk':
            break
    second = EventStream(urls[0] + '/api/v1/agent/chat', 'POST',
                         ask('¿Y cuántas hay planificadas?', thread_id=thread_id, busy_policy='enqueue'))
    if second.status != 200:
        fail('the queued question: HTTP %d' % second.status)
    queued_id = second.headers['X-Run-Id']
    status = psql(env['PG_URI'], "SELECT status FROM agentio_runs WHERE id = '%s'" % queued_id)
    if status != 'queued':
        fail('the second question should wait in line, its run is %r' % status)
    os.kill(int(pids[0]), signal.SIGKILL)
    killed_at = time.monotonic()
    first.close()
    second.close()

    # Through nginx (the dead replica is skipped): the queued run's whole stream.
    events, deadline = [], time.monotonic() + 40
    while time.monotonic() < deadline:
        headers = {'Last-Event-ID': events[-1]['id']} if events else {}
        try:
            again = EventStream(env['NGINX_URL'] + '/api/v1/agent/runs/%s/events' % queued_id, headers=headers)
        except OSError:
            time.sleep(0.1)
            continue
        if again.status != 200:
            fail('reading the queued run: HTTP %d' % again.status)
        for e in again.events():
            events.append(e)
            if e.get('event') in ('done', 'error'):
                break
        again.close()
        if events and events[-1].get('event') in ('done', 'error'):
            break
    else:
        fail('the queued question was not answered within 40 s of the kill')
    answered_at = time.monotonic()
    if json.loads(events[-1]['data'])['status'] != 'completed':
        fail('the queued run did not complete: %r' % events[-1])
    ids = [int(e['id']) for e in events]
    if ids != list(range(1, len(ids) + 1)):
        fail('the queued run\'s event ids are not 1..N exactly once: %s' % ids)
    rows = psql(env['PG_URI'], "SELECT run_id FROM agentio_thread_items WHERE thread_id = '%s' ORDER BY seq" %
                thread_id).split()
    if rows != [run_id] * 4 + [queued_id] * 4:
        fail('the thread should hold the first exchange, then the queued one: %r' % rows)
    statuses = psql(env['PG_URI'], "SELECT status FROM agentio_runs WHERE id IN ('%s', '%s') ORDER BY created_at"
                    % (run_id, queued_id)).split()
    if statuses != ['completed', 'completed']:
        fail('both runs should have completed: %r' % statuses)
    return answered_at - killed_at


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('exe')
    ap.add_argument('fake')
    ap.add_argument('scenarios')
    ap.add_argument('work')
    ap.add_argument('--runs', type=int, default=1)
    ap.add_argument('--json', default='')
    a = ap.parse_args()
    subprocess.run(['rm', '-rf', a.work], check=True)
    os.makedirs(a.work)
    fake, fake_url = start_fake(a.fake, a.scenarios, a.work, 40)
    replicas = os.path.join(a.work, 'replicas')
    env = dict(os.environ, ANTHROPIC_API_KEY='k', ANTHROPIC_BASE_URL=fake_url, AGENT_MODEL='portfolio-two-rounds')
    times = []
    try:
        for n in range(a.runs):
            out = subprocess.run(['bash', os.path.join(ROOT, 'scripts', 'replicas.sh'), 'start', replicas,
                                  '--exe', a.exe], env=env, capture_output=True, text=True)
            if out.returncode != 0:
                fail('replicas.sh start: ' + out.stderr)
            seconds, count = one_failover(read_env(os.path.join(replicas, 'env')), a.work)
            times.append(seconds)
            print('ok   run %d: SIGKILL of the replica mid-answer; the other took over in %.2f s; '
                  '%d events, each id once' % (n + 1, seconds, count))
            subprocess.run(['bash', os.path.join(ROOT, 'scripts', 'replicas.sh'), 'stop', replicas])
        out = subprocess.run(['bash', os.path.join(ROOT, 'scripts', 'replicas.sh'), 'start', replicas,
                              '--exe', a.exe], env=env, capture_output=True, text=True)
        if out.returncode != 0:
            fail('replicas.sh start: ' + out.stderr)
        seconds = queued_question_survives(read_env(os.path.join(replicas, 'env')))
        print('ok   a question queued on the replica SIGKILLed was answered by the other %.2f s after the kill, '
              'after the answer ahead of it' % seconds)
    finally:
        subprocess.run(['bash', os.path.join(ROOT, 'scripts', 'replicas.sh'), 'stop', replicas],
                       capture_output=True)
        fake.terminate()
    if a.runs > 1:
        print('failover: median %.2f s, max %.2f s over %d kills' % (statistics.median(times), max(times), a.runs))
    if a.json:
        json.dump({'failover_seconds': times}, open(a.json, 'w'))


if __name__ == '__main__':
    main()
