#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

"""Python peer of the agentio-normativa retrieval benchmark: the same chunks, ranked the textbook way.

  normativa_peer.py --index INDEX.db [--questions questions.json] [--collection NAME] [--repeat 20] [--json] [--verbose]

Reads the chunks of the C++ index (table rag_chunks) and ranks them three ways:
  sparse  SQLite FTS5 BM25 in an in-memory database (tokenizer unicode61 remove_diacritics 2, columns title and
          text, weights 3.0 and 1.0); the query is the OR of the quoted, accent-folded, lower-cased words of the
          question minus the Spanish stopwords below.
  dense   scikit-learn TfidfVectorizer (sublinear tf, accents stripped, same stopwords) on title + "\\n" + text,
          TruncatedSVD (256 components, or fewer on a small corpus; randomized, n_iter=3, random_state=0), cosine
          of L2-normalised vectors.
  hybrid  weighted reciprocal-rank fusion of the two: sum of w / (60 + rank), ranks from 1, each list cut at 30,
          weights 1 and 1; ties go to the smaller chunk id.
Every question of questions.json is asked in two forms, the worker's question and the keywords a model would send.
recall@5: an expected article owns one of the chunks ranked 1..5. MRR: 1 / rank of the first chunk of an expected
article, 0 when none is in the top 30. Latency: each query form repeated --repeat times per method; median and p99
(nearest rank) over all calls. Fit time: building the FTS5 table, and fitting TF-IDF + SVD.

Needs numpy and scikit-learn (Debian: python3-numpy, python3-sklearn) for the interpreter that runs it.
"""
import argparse
import json
import math
import re
import sqlite3
import statistics
import sys
import time
import unicodedata
from pathlib import Path

try:
    import numpy as np
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
except ImportError as e:  # pragma: no cover - a message beats a traceback here
    sys.exit(f"normativa_peer.py needs numpy and scikit-learn ({e}); on Debian: apt-get install -y python3-sklearn "
             f"python3-numpy, and run it with the system interpreter /usr/bin/python3")

RRF_K = 60
CUT = 30
RECALL_AT = 5
SVD_COMPONENTS = 256

# Spanish function words (articles, prepositions, conjunctions, pronouns, auxiliaries, question words). Written
# accented for reading; folded before use, since both the FTS query and the TF-IDF tokens are accent-folded.
SPANISH_STOPWORDS = """
a al algo algunas algunos ante antes como con contra cual cuales cuando cuándo cuánto cuánta cuántos cuántas
de del desde donde dónde durante e el él ella ellas ello ellos en entre era erais éramos eran eras eres es esa
esas ese eso esos esta está estaba estabais estábamos estaban estabas estad estada estadas estado estados estamos
estáis están estar estará estarán estarás estaré estaréis estaremos estaría estaríais estaríamos estarían
estarías estas estás este esté estéis estemos estén estés esto estos estoy estuve estuviera estuvieron estuvimos
estuviste estuvo fue fuera fueran fueron fui fuimos fuiste ha habéis había habíais habíamos habían habías han
has hasta hay haya hayan hayas he hemos hube hubiera hubieron hubo la las le les lo los me mi mí mía mías mío
míos mis mucho muchos muy más nada ni no nos nosotras nosotros nuestra nuestras nuestro nuestros o os otra otras
otro otros para pero poco por porque que qué quien quién quienes se sea sean seas será serán serás seré sería
serían ser sin sobre sois somos son soy su sus suya suyas suyo suyos también tanto te tendrá tendrán tendré tened
tenemos tenéis tener tenga tengan tengas tengo tenía tenían tenías ti tiene tienen tienes todo todos tu tú tus
tuve tuvo tuya tuyas tuyo tuyos u un una unas uno unos vosotras vosotros vuestra vuestras vuestro vuestros y ya yo
""".split()

WORD_RE = re.compile(r"\w+")


def fold(s):
    """Lower-case and strip diacritics (NFKD, combining marks dropped): 'Jubilación' -> 'jubilacion'."""
    decomposed = unicodedata.normalize("NFKD", s.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


STOPWORDS = sorted({fold(w) for w in SPANISH_STOPWORDS})
STOPSET = frozenset(STOPWORDS)


def norm_article(a):
    """Article numbers compare case-insensitively, NFC, whitespace collapsed: 'Disposición adicional décima'."""
    return " ".join(unicodedata.normalize("NFC", str(a)).casefold().split())


def percentile_nearest_rank(samples, p):
    xs = sorted(samples)
    return xs[max(0, math.ceil(p / 100.0 * len(xs)) - 1)]


class Peer:
    def __init__(self, chunks):
        """chunks: list of (id, article_number, title, text), in id order."""
        self.ids = [c[0] for c in chunks]
        self.article = {c[0]: norm_article(c[1]) for c in chunks}

        t0 = time.perf_counter()
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE f USING fts5(title, text, tokenize='unicode61 remove_diacritics 2')")
        self.db.executemany("INSERT INTO f(rowid, title, text) VALUES(?, ?, ?)",
                            [(c[0], c[2] or "", c[3] or "") for c in chunks])
        self.db.commit()
        self.sparse_fit_ms = (time.perf_counter() - t0) * 1e3

        t0 = time.perf_counter()
        docs = [f"{c[2] or ''}\n{c[3] or ''}" for c in chunks]
        self.vectorizer = TfidfVectorizer(sublinear_tf=True, strip_accents="unicode", lowercase=True,
                                          stop_words=STOPWORDS)
        tfidf = self.vectorizer.fit_transform(docs)
        self.components = max(1, min(SVD_COMPONENTS, tfidf.shape[0] - 1, tfidf.shape[1] - 1))
        self.svd = TruncatedSVD(n_components=self.components, algorithm="randomized", n_iter=3, random_state=0)
        dense = self.svd.fit_transform(tfidf)
        norms = np.linalg.norm(dense, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        self.dense = dense / norms
        self.dense_fit_ms = (time.perf_counter() - t0) * 1e3
        self.vocabulary = tfidf.shape[1]

    @staticmethod
    def fts_query(text):
        terms = []
        for w in WORD_RE.findall(fold(text)):
            if w not in STOPSET and w not in terms:
                terms.append(w)
        return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)

    def sparse(self, text):
        q = self.fts_query(text)
        if not q:
            return []
        rows = self.db.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f, 3.0, 1.0), rowid LIMIT ?",
                               (q, CUT)).fetchall()
        return [r[0] for r in rows]

    def dense_rank(self, text):
        v = self.svd.transform(self.vectorizer.transform([text]))[0]
        n = np.linalg.norm(v)
        if n == 0:
            return []
        scores = self.dense @ (v / n)
        order = np.argsort(-scores, kind="stable")[:CUT]
        return [self.ids[i] for i in order]

    @staticmethod
    def fuse(lists, weights):
        score = {}
        for ranked, w in zip(lists, weights):
            for rank, cid in enumerate(ranked[:CUT], start=1):
                score[cid] = score.get(cid, 0.0) + w / (RRF_K + rank)
        return [cid for cid, _ in sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))][:CUT]

    def hybrid(self, text):
        return self.fuse([self.sparse(text), self.dense_rank(text)], [1.0, 1.0])

    def articles_in_order(self, ranked):
        seen = []
        for cid in ranked:
            a = self.article[cid]
            if a not in seen:
                seen.append(a)
        return seen

    def first_hit(self, ranked, expected):
        for rank, cid in enumerate(ranked, start=1):
            if self.article[cid] in expected:
                return rank
        return None


def main():
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", required=True, help="SQLite database with the table rag_chunks")
    ap.add_argument("--questions", default=str(here.parent / "reference_server/normativa/tests/questions.json"))
    ap.add_argument("--collection", help="only the chunks of this collection")
    ap.add_argument("--repeat", type=int, default=20, help="timed runs of each query form per method")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--verbose", action="store_true", help="also list, per question, the rank of its first hit")
    args = ap.parse_args()

    src = sqlite3.connect(f"file:{args.index}?mode=ro", uri=True)
    sql = "SELECT id, article_number, title, text FROM rag_chunks"
    params = ()
    if args.collection:
        sql += " WHERE collection = ?"
        params = (args.collection,)
    chunks = src.execute(sql + " ORDER BY id", params).fetchall()
    src.close()
    if not chunks:
        sys.exit(f"no chunks in {args.index}")
    with open(args.questions, encoding="utf-8") as f:
        questions = json.load(f)["questions"]

    peer = Peer(chunks)
    methods = {"sparse": peer.sparse, "dense": peer.dense_rank, "hybrid": peer.hybrid}
    forms = ("question", "keywords")

    present = {peer.article[c[0]] for c in chunks}
    missing = sorted({a for q in questions for a in map(norm_article, q["articles"])} - present)

    # Quality.
    sums = {m: {f: {"recall": 0, "rr": 0.0} for f in forms} for m in methods}
    per_question = []
    for q in questions:
        expected = {norm_article(a) for a in q["articles"]}
        entry = {"question": q["question"], "keywords": q["keywords"], "articles": q["articles"]}
        for m, fn in methods.items():
            entry[m] = {}
            for form in forms:
                ranked = fn(q[form])
                rank = peer.first_hit(ranked, expected)
                if rank is not None and rank <= RECALL_AT:
                    sums[m][form]["recall"] += 1
                if rank is not None:
                    sums[m][form]["rr"] += 1.0 / rank
                entry[m][form] = {"rank": rank, "top_articles": peer.articles_in_order(ranked)[:RECALL_AT]}
        per_question.append(entry)
    n = len(questions)
    results = {m: {f: {"recall@5": sums[m][f]["recall"] / n, "mrr": sums[m][f]["rr"] / n} for f in forms}
               for m in methods}

    # Latency.
    queries = [q[form] for q in questions for form in forms]
    latency = {}
    for m, fn in methods.items():
        samples = []
        for text in queries:
            for _ in range(args.repeat):
                t0 = time.perf_counter_ns()
                fn(text)
                samples.append((time.perf_counter_ns() - t0) / 1e6)
        latency[m] = {"median_ms": statistics.median(samples), "p99_ms": percentile_nearest_rank(samples, 99),
                      "calls": len(samples)}

    report = {
        "index": args.index,
        "questions_file": args.questions,
        "chunks": len(chunks),
        "articles": len(present),
        "questions": n,
        "labels_not_in_index": missing,
        "config": {"rrf_k": RRF_K, "cut": CUT, "recall_at": RECALL_AT, "bm25_weights": [3.0, 1.0],
                   "svd_components": peer.components, "vocabulary": peer.vocabulary, "fusion_weights": [1.0, 1.0],
                   "stopwords": len(STOPWORDS), "repeat": args.repeat},
        "fit_ms": {"sparse": peer.sparse_fit_ms, "dense": peer.dense_fit_ms},
        "results": results,
        "latency": latency,
        "per_question": per_question,
    }
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return

    print(f"{len(chunks)} chunks of {len(present)} articles, {n} questions, "
          f"SVD {peer.components} components over {peer.vocabulary} terms")
    if missing:
        print(f"labels with no chunk in the index: {', '.join(missing)}")
    print(f"fit: sparse {peer.sparse_fit_ms:.1f} ms, dense {peer.dense_fit_ms:.1f} ms\n")
    print(f"{'method':<8} {'form':<9} {'recall@5':>9} {'MRR':>7}")
    for m in methods:
        for f in forms:
            r = results[m][f]
            print(f"{m:<8} {f:<9} {r['recall@5']:>9.3f} {r['mrr']:>7.3f}")
    print(f"\n{'method':<8} {'median ms':>10} {'p99 ms':>8}   ({args.repeat} runs of each of {len(queries)} queries)")
    for m in methods:
        print(f"{m:<8} {latency[m]['median_ms']:>10.3f} {latency[m]['p99_ms']:>8.3f}")
    if args.verbose:
        print("\nfirst-hit rank per question (sparse/dense/hybrid; '-' = not in top 30), question form | keywords form")
        for e in per_question:
            cell = lambda form: "/".join(str(e[m][form]["rank"] or "-") for m in methods)
            print(f"{cell('question'):>10} | {cell('keywords'):<10} {','.join(e['articles']):<12} {e['question']}")


if __name__ == "__main__":
    main()
