// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "tools.hpp"

#include "corpus.hpp"
#include "settings.hpp"

#include <agentio/json_text.hpp>
#include <agentio/messages.hpp>

#include <charconv>
#include <cmath>
#include <regex>
#include <sstream>

namespace normativa {

namespace asio = boost::asio;
namespace json = boost::json;
namespace retrieval = agentio::retrieval;
using agentio::tool_result;

std::string empty_index_message()
{
    return "El índice está vacío: ejecute agentio-normativa ingest --law \"Estatuto de los Trabajadores\" RUTA…";
}

namespace {

// At most `max` bytes, cut at a character's start, with an ellipsis when cut.
std::string clip(std::string_view s, std::size_t max)
{
    if(s.size() <= max)
        return std::string(s);
    auto n = max;
    while(n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
        --n;
    return std::string(s.substr(0, n)) + "…";
}

// The first sentence, for a glance: up to the first ". " within 200 bytes.
std::string first_sentence(std::string_view text)
{
    auto const end = text.find(". ");
    if(end != std::string_view::npos && end + 1 <= 200)
        return std::string(text.substr(0, end + 1));
    return clip(text.substr(0, text.find('\n')), 200);
}

tool_result chunks_result(std::vector<retrieval::hit> const& hits)
{
    json::array out;
    for(auto const& h : hits)
        out.push_back(chunk_json(h.item, h.score));
    return tool_result::json(std::move(out));
}

tool_result chunks_result(std::vector<retrieval::chunk> const& chunks)
{
    json::array out;
    for(auto const& c : chunks)
        out.push_back(chunk_json(c, 1.0));
    return tool_result::json(std::move(out));
}

tool_result index_failure(retrieval::error const& e)
{
    return tool_result::error("No se pudo consultar el índice: " + e.message);
}

// "48" → {48, ""}; "48.4" → {48, 4}; "art. 48 bis" → {48 bis, ""}; "Disposición adicional décima" → as is, lower case.
std::pair<std::string, std::string> parse_article_number(std::string_view text)
{
    auto const folded = retrieval::lower(text);
    static std::regex const numbered(
        R"(^\s*(?:art[ií]culo|art\.?)?\s*(\d+(?: bis| ter| quater)?)(?:\.(\d+))?\s*\.?\s*$)");
    std::smatch m;
    if(std::regex_match(folded, m, numbered))
        return {m[1].str(), m[2].matched ? m[2].str() : std::string()};
    // A disposición: spaces collapsed, as headings write it.
    std::string out;
    std::istringstream words_of(folded);
    std::string w;
    while(words_of >> w)
        out += (out.empty() ? "" : " ") + w;
    while(!out.empty() && out.back() == '.')
        out.pop_back();
    return {out, std::string()};
}

} // namespace

std::string short_section(retrieval::chunk const& c)
{
    if(c.article_number.empty())
        return c.title;
    if(c.article_number.starts_with("disposición"))
        return std::string("D").append(c.article_number, 1);
    return "Art. " + c.article_number + (c.paragraph.empty() ? "" : "." + c.paragraph);
}

json::object chunk_json(retrieval::chunk const& c, double score)
{
    return json::object{{"id", c.id}, {"law", c.law}, {"section", c.title}, {"chapter", c.chapter},
        {"resumen", first_sentence(c.text)}, {"text", clip(c.text, 2000)}, {"score", std::round(score * 1000) / 1000},
        {"collection", c.collection}};
}

asio::awaitable<tool_result> search_normativa::operator()(args a, agentio::tool_context& ctx) const
{
    if(!env->search)
        co_return tool_result::error(empty_index_message());
    retrieval::search_request request{.text = a.query, .top_k = static_cast<std::size_t>(a.top_k)};
    request.traceparent = ctx.traceparent; // a `retrieval normativa` span of this call
    auto found = co_await env->search->search(request);
    if(!found)
        co_return index_failure(found.error());
    if(found->hits.empty())
        co_return tool_result::text("[]\nNingún fragmento coincide con «" + a.query +
            "». Reformula con sinónimos o términos legales más específicos.");
    co_return chunks_result(found->hits);
}

asio::awaitable<tool_result> search_sentencias::operator()(args a, agentio::tool_context& ctx) const
{
    if(!env->search)
        co_return tool_result::error(empty_index_message());
    if(!env->has_sentencias)
    {
        tool_result r = tool_result::text("[]");
        r.content.emplace_back(agentio::text_content{
            "La colección «sentencias» aún no tiene documentos: no hay jurisprudencia que consultar. Responde con la "
            "normativa."});
        co_return r;
    }
    retrieval::search_request request{.text = a.query,
        .top_k = static_cast<std::size_t>(a.top_k),
        .collections = {"sentencias"}};
    request.traceparent = ctx.traceparent; // a `retrieval normativa` span of this call
    auto found = co_await env->search->search(request);
    if(!found)
        co_return index_failure(found.error());
    co_return chunks_result(found->hits);
}

asio::awaitable<tool_result> get_article::operator()(args a, agentio::tool_context& ctx) const
{
    if(!env->search)
        co_return tool_result::error(empty_index_message());
    auto& idx = env->search->source();
    auto const [number, paragraph] = parse_article_number(a.article_number);
    auto const law = resolve_law(a.law_name, env->laws);
    if(!law)
    {
        // Not a law of the index: the search may still find what the model means.
        retrieval::search_request request{.text = "artículo " + number + " " + a.law_name, .top_k = 5};
        request.traceparent = ctx.traceparent; // a `retrieval normativa` span of this call
        auto found = co_await env->search->search(request);
        if(!found)
            co_return index_failure(found.error());
        std::string known;
        for(auto const& l : env->laws)
            known += (known.empty() ? "" : ", ") + l;
        auto r = chunks_result(found->hits);
        r.content.insert(r.content.begin(),
            agentio::text_content{"La ley «" + a.law_name + "» no está en el índice (leyes disponibles: " + known +
                "). Resultados de búsqueda en su lugar:"});
        co_return r;
    }
    auto rows = co_await idx.article(*law, number, paragraph);
    if(!rows)
        co_return index_failure(rows.error());
    if(rows->empty() && !paragraph.empty())
    {
        std::string all_paragraphs;
        auto whole = co_await idx.article(*law, number, std::move(all_paragraphs));
        if(!whole)
            co_return index_failure(whole.error());
        rows = std::move(*whole);
    }
    if(rows->empty())
    {
        std::string const missing = *law == estatuto
            ? "El artículo " + a.article_number +
                " no existe en el Estatuto de los Trabajadores (artículos 1 a 92 y disposiciones)."
            : "El artículo " + a.article_number + " no está en «" + *law + "».";
        // As specified: a search of the law instead, its passages first.
        retrieval::search_request request{.text = "artículo " + a.article_number + " " + *law, .top_k = 10};
        request.traceparent = ctx.traceparent; // a `retrieval normativa` span of this call
        auto found = co_await env->search->search(request);
        if(!found)
            co_return index_failure(found.error());
        std::vector<retrieval::hit> in_law;
        for(auto& h : found->hits)
            if(h.item.law == *law && in_law.size() < 5)
                in_law.push_back(std::move(h));
        if(in_law.empty())
            co_return tool_result::error(missing);
        auto r = chunks_result(in_law);
        r.content.insert(r.content.begin(),
            agentio::text_content{missing + " Resultados de búsqueda en esa ley en su lugar:"});
        co_return r;
    }
    co_return chunks_result(*rows);
}

asio::awaitable<tool_result> get_related_chunks::operator()(args a, agentio::tool_context&) const
{
    if(!env->search)
        co_return tool_result::error(empty_index_message());
    std::int64_t id = 0;
    bool valid = false;
    if(a.chunk_id.is_int64())
        id = a.chunk_id.get_int64(), valid = true;
    else if(a.chunk_id.is_uint64() && a.chunk_id.get_uint64() <= INT64_MAX)
        id = static_cast<std::int64_t>(a.chunk_id.get_uint64()), valid = true;
    else if(a.chunk_id.is_string())
    {
        auto const& s = a.chunk_id.get_string();
        auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
        valid = ec == std::errc() && end == s.data() + s.size();
    }
    if(!valid)
        co_return tool_result::error("chunk_id: se esperaba el id numérico de un fragmento, recibido " +
            agentio::to_json_text(a.chunk_id));
    auto& idx = env->search->source();
    std::vector<std::int64_t> wanted{id};
    auto from = co_await idx.chunks(std::move(wanted));
    if(!from)
        co_return index_failure(from.error());
    if(from->empty())
        co_return tool_result::error("No existe el fragmento " + std::to_string(id) +
            ": usa el id de un resultado de search_normativa o get_article.");
    auto related = co_await retrieval::related_chunks(idx, from->front(), 5);
    if(!related)
        co_return index_failure(related.error());
    if(related->empty())
    {
        tool_result r = tool_result::text("[]");
        r.content.emplace_back(agentio::text_content{
            "El fragmento " + std::to_string(id) + " no cita otros artículos de la misma ley."});
        co_return r;
    }
    co_return chunks_result(*related);
}

normativa_tools make_tools(tool_environment const& env)
{
    agentio::toolset_options options;
    options.validation.texts = agentio::spanish_messages;
    return normativa_tools{options, search_normativa{{&env}}, search_sentencias{{&env}}, get_article{{&env}},
        get_related_chunks{{&env}}};
}

} // namespace normativa
