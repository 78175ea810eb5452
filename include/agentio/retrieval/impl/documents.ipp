//
// agentio/retrieval/impl/documents.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_DOCUMENTS_IPP
#define AGENTIO_RETRIEVAL_IMPL_DOCUMENTS_IPP

#include <agentio/retrieval/documents.hpp>
#include <agentio/retrieval/searcher.hpp>
#include <agentio/text.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <memory>

namespace agentio::retrieval {

namespace detail {

// Where to end a piece of `text` that starts at `begin` and may run to
// `limit`: the last paragraph break, else sentence end, else space in its
// second half, else the limit itself (on a character boundary).
inline std::size_t piece_end(std::string_view text, std::size_t begin, std::size_t limit)
{
    if(limit >= text.size())
        return text.size();
    std::size_t const half = begin + (limit - begin) / 2;
    std::string_view const window = text.substr(0, limit);
    for(std::string_view mark : {std::string_view("\n\n"), std::string_view(". "), std::string_view(".\n"),
            std::string_view("\n"), std::string_view(" ")})
    {
        auto const at = window.rfind(mark);
        if(at != std::string_view::npos && at + mark.size() > half)
            return at + mark.size();
    }
    return agentio::utf8_byte_prefix(text, limit);
}

// Where the next piece starts: `overlap` bytes before `end`, moved forward to the start of a word.
inline std::size_t next_start(std::string_view text, std::size_t begin, std::size_t end, std::size_t overlap)
{
    if(end >= text.size())
        return text.size();
    std::size_t start = end > overlap ? end - overlap : 0;
    if(start <= begin)
        return end;
    auto const space = text.find_first_of(" \n", start);
    if(space != std::string_view::npos && space < end)
        start = space + 1;
    else
        start = agentio::utf8_byte_prefix(text, start);
    return start > begin ? start : end;
}

// Runs of blank space made one space (a line break kept where lines were), trimmed.
inline std::string tidy(std::string_view text)
{
    std::string out;
    bool space = false, line = false;
    for(char c : text)
    {
        if(c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n')
        {
            space = true;
            line = line || c == '\n';
            continue;
        }
        if(space && !out.empty())
            out.push_back(line ? '\n' : ' ');
        space = line = false;
        out.push_back(c);
    }
    return out;
}

// Takes the text out of the file in /work/in; the answer on descriptor 3.
inline constexpr char const* extraction_driver = R"py(import json, os, re, subprocess, sys, zipfile
def report(message):
    os.write(3, json.dumps(message).encode())
class Refused(Exception):
    pass
request = json.loads(sys.stdin.read())
name, kind, path = request["name"], request["media_type"], "/work/in"
limit = request["text_bytes"]
parts = []
def add(place, text):
    if text.strip():
        parts.append({"place": place, "text": text})
def by_headings(lines, is_heading, title_of):
    place, buffer = "text", []
    for line in lines:
        if is_heading(line):
            add(place, "\n".join(buffer))
            place, buffer = "section " + title_of(line), []
        else:
            buffer.append(line)
    add(place, "\n".join(buffer))
try:
    if kind == "application/pdf":
        try:
            run = subprocess.run(["/usr/bin/pdftotext", "-enc", "UTF-8", "-eol", "unix", path, "-"],
                                 capture_output=True, timeout=request["seconds"])
        except subprocess.TimeoutExpired:
            raise Refused(name + ": reading the PDF took longer than " + str(request["seconds"]) + " s")
        if run.returncode != 0:
            said = run.stderr.decode("utf-8", "replace").strip().splitlines()
            raise Refused(name + " is not a readable PDF (" + (said[-1] if said else "pdftotext failed") + ")")
        for n, page in enumerate(run.stdout[:limit].decode("utf-8", "replace").split("\f"), 1):
            add("page " + str(n), page)
    elif kind == "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
        try:
            archive = zipfile.ZipFile(path)
        except zipfile.BadZipFile as e:
            raise Refused(name + " is not a valid DOCX (" + str(e) + ")")
        expanded = sum(i.file_size for i in archive.infolist())
        if expanded > request["expanded_bytes"]:
            raise Refused(name + " would expand to " + str(expanded // (1024 * 1024)) +
                          " MB: refused as a zip bomb")
        try:
            info = archive.getinfo("word/document.xml")
        except KeyError:
            raise Refused(name + " is not a DOCX: it has no word/document.xml")
        xml = archive.read(info)
        if re.search(rb"<!(DOCTYPE|ENTITY)", xml[:65536]) or b"<!ENTITY" in xml:
            raise Refused(name + " declares XML entities, which a DOCX never does: refused")
        from xml.etree import ElementTree
        try:
            root = ElementTree.fromstring(xml)
        except ElementTree.ParseError as e:
            raise Refused(name + " has malformed XML (" + str(e) + ")")
        w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
        place, buffer = "text", []
        for paragraph in root.iter(w + "p"):
            text = "".join(t.text or "" for t in paragraph.iter(w + "t"))
            if not text.strip():
                continue
            style = paragraph.find(w + "pPr/" + w + "pStyle")
            value = (style.get(w + "val") or "").lower() if style is not None else ""
            if value.startswith(("heading", "title", "titulo", "ttulo")):
                add(place, "\n".join(buffer))
                place, buffer = "section " + text.strip(), []
            else:
                buffer.append(text)
        add(place, "\n".join(buffer))
    elif kind == "application/json":
        try:
            data = json.loads(open(path, encoding="utf-8-sig").read())
        except (ValueError, RecursionError) as e:
            raise Refused(name + " is not valid JSON (" + str(e)[:200] + ")")
        def walk(value, where, out):
            if isinstance(value, dict):
                for k, v in value.items():
                    walk(v, where + "." + str(k), out)
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    walk(v, where + "[" + str(i) + "]", out)
            else:
                out.append(where + ": " + json.dumps(value, ensure_ascii=False))
        groups = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else [("", data)]
        for key, value in groups:
            where = "$." + str(key) if isinstance(data, dict) else "$[" + str(key) + "]" if isinstance(data, list) else "$"
            out = []
            try:
                walk(value, where, out)
            except RecursionError:
                raise Refused(name + " nests too deeply to read")
            add(where, "\n".join(out))
    else:
        raw = open(path, "rb").read()[:limit]
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise Refused(name + " is not UTF-8 text (byte " + str(e.start) + ")")
        heading = re.compile(r"^#{1,6}\s+\S")
        by_headings(text.splitlines(), lambda l: bool(heading.match(l)), lambda l: l.lstrip("#").strip())
    total = 0
    kept = []
    for p in parts:
        total += len(p["text"].encode())
        if total > limit:
            break
        kept.append(p)
    if not kept:
        raise Refused(name + " has no text to index" + (" (a scanned PDF has only images)" if kind == "application/pdf" else ""))
    report({"parts": kept})
except Refused as e:
    report({"error": str(e)})
except MemoryError:
    report({"error": name + " is too large to read within the memory limit"})
except Exception as e:
    report({"error": name + " cannot be read (" + type(e).__name__ + ": " + str(e)[:300] + ")"})
)py";

} // namespace detail

AGENTIO_DECL std::vector<chunk> chunk_document(document const& doc, chunking const& how)
{
    std::vector<chunk> out;
    std::size_t const target = std::max<std::size_t>(how.target_bytes, 64);
    std::size_t const overlap = std::min(how.overlap_bytes, target / 2);
    for(std::size_t p = 0; p < doc.parts.size(); ++p)
    {
        std::string const text = detail::tidy(doc.parts[p].text);
        std::size_t begin = 0, piece = 0;
        while(begin < text.size())
        {
            std::size_t const end = detail::piece_end(text, begin, begin + target);
            chunk c;
            c.key = doc.key + "/" + std::to_string(p + 1) + "/" + std::to_string(++piece);
            c.collection = doc.collection;
            c.law = doc.key;
            c.title = doc.title;
            c.section = doc.parts[p].place;
            c.text = text.substr(begin, end - begin);
            c.ordinal = static_cast<std::int32_t>(out.size() + 1);
            out.push_back(std::move(c));
            begin = detail::next_start(text, begin, end, overlap);
        }
    }
    return out;
}

AGENTIO_DECL boost::asio::awaitable<result<ingest_report>> ingest_document(index_writer& writer, document doc,
    document_ingest_options options)
{
    auto chunks = chunk_document(doc, options.chunks);
    auto report = co_await writer.replace(doc.collection, doc.key, chunks);
    if(!report)
        co_return report;
    auto stored = co_await writer.load_model(options.model_name);
    if(!stored)
        co_return stored.error();
    std::shared_ptr<lsa_model const> model;
    if(*stored)
        if(auto parsed = lsa_model::parse(**stored))
            model = std::make_shared<lsa_model const>(std::move(*parsed));
    if(!model)
    {
        // The index's first documents: a model fitted on what it holds.
        lsa_refresh_options refresh;
        refresh.model_name = options.model_name;
        auto fitted = co_await refresh_lsa_vectors(writer, std::move(refresh));
        if(!fitted)
            co_return fitted.error();
        co_return report;
    }
    // Folded into the model the index has: the new chunks' vectors, no refit.
    lsa_embedder embedder(model, writer.text_analyzer());
    embed_missing_options quiet;
    auto embedded = co_await embed_missing_vectors(writer, embedder, std::move(quiet));
    if(!embedded)
        co_return embedded.error();
    co_return report;
}

AGENTIO_DECL boost::asio::awaitable<boost::system::result<std::vector<document_part>, std::string>> extract_document(
    sandbox::runner& sandbox, std::string content, std::string media_type, std::string name, extraction_limits limits)
{
    sandbox::python_program reader;
    reader.source = detail::extraction_driver;
    reader.files = {{"in", std::move(content)}};
    reader.input = {{"name", name}, {"media_type", media_type},
        {"seconds", std::max<long long>(1, static_cast<long long>(limits.wall_time.count()) - 2)},
        {"expanded_bytes", limits.expanded_bytes}, {"text_bytes", limits.text_bytes}};
    reader.executables = {"/usr/bin/pdftotext"};
    reader.limits.wall_time = limits.wall_time;
    reader.limits.cpu_time = limits.wall_time;
    reader.limits.memory_bytes = limits.memory_bytes;
    reader.limits.output_bytes = 64 * 1024;
    reader.limits.channel_bytes = limits.text_bytes * 2 + 1024 * 1024; // JSON escapes
    reader.limits.work_bytes = std::max<std::uint64_t>(reader.limits.work_bytes, limits.expanded_bytes / 2);
    auto const answer = co_await sandbox::run_python_program(sandbox, std::move(reader));
    if(!answer)
        co_return name + " cannot be read: its reader " + answer.error();
    auto const& o = *answer;
    if(auto const* error = o.if_contains("error"); error && error->is_string())
        co_return std::string(error->as_string());
    std::vector<document_part> parts;
    if(auto const* list = o.if_contains("parts"); list && list->is_array())
        for(auto const& p : list->as_array())
        {
            document_part part;
            if(auto const* place = p.as_object().if_contains("place"); place && place->is_string())
                agentio::append_valid_utf8(part.place, place->as_string());
            if(auto const* text = p.as_object().if_contains("text"); text && text->is_string())
                agentio::append_valid_utf8(part.text, text->as_string());
            parts.push_back(std::move(part));
        }
    co_return parts;
}

} // namespace agentio::retrieval

#endif
