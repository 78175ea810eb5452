// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The agent's four tools: search the law (all collections, weighted), search
// rulings, fetch an article by number, follow a passage's references. Each
// answers a JSON array of {id, law, section, chapter, resumen, text, score,
// collection}, or a Spanish message the model can act on.
#pragma once

#include <agentio/retrieval.hpp>
#include <agentio/tool.hpp>

#include <boost/describe.hpp>
#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normativa {

/// What the tools read; owned by the application, shared by every run.
struct tool_environment
{
    agentio::retrieval::searcher* search = nullptr; ///< null: no index yet
    std::vector<std::string> laws;                  ///< the laws the index holds
    bool has_sentencias = false;                    ///< whether the "sentencias" collection has documents
};

/// The message every tool gives while the index is empty.
std::string empty_index_message();

/// A chunk as the tools return it (the seed's ChunkToolResult).
boost::json::object chunk_json(agentio::retrieval::chunk const& c, double score);

/// "Art. 48" for an article, "Disposición adicional décima" for a disposición.
std::string short_section(agentio::retrieval::chunk const& c);

struct tool_base
{
    tool_environment const* env = nullptr;
};

struct search_normativa : tool_base
{
    static constexpr std::string_view name = "search_normativa";
    static constexpr std::string_view description =
        "Búsqueda híbrida (léxica BM25 + semántica) en la normativa laboral y de Seguridad Social y en las demás "
        "colecciones, ponderadas. Herramienta principal para encontrar los artículos que responden a la pregunta. "
        "Usa 3-6 palabras clave técnico-legales.";
    struct args
    {
        std::string query;
        std::int64_t top_k = 8;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(search_normativa::args, (), (query, top_k))

struct search_sentencias : tool_base
{
    static constexpr std::string_view name = "search_sentencias";
    static constexpr std::string_view description =
        "Búsqueda en la colección de sentencias (jurisprudencia del Tribunal Supremo): precedentes judiciales e "
        "interpretaciones de los tribunales.";
    struct args
    {
        std::string query;
        std::int64_t top_k = 5;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(search_sentencias::args, (), (query, top_k))

struct get_article : tool_base
{
    static constexpr std::string_view name = "get_article";
    static constexpr std::string_view description =
        "Recupera un artículo concreto por su número y el nombre de la ley, sin búsqueda: útil cuando ya se sabe "
        "qué artículo se necesita. Con apartado (\"48.4\") devuelve solo ese apartado.";
    struct args
    {
        std::string article_number;
        std::string law_name;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(get_article::args, (), (article_number, law_name))

struct get_related_chunks : tool_base
{
    static constexpr std::string_view name = "get_related_chunks";
    static constexpr std::string_view description =
        "Devuelve los fragmentos que cita un fragmento dado (artículos referenciados, como \"artículo 48.4\" o "
        "\"artículos 40 y 41\"), como máximo 5.";
    struct args
    {
        boost::json::value chunk_id;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(get_related_chunks::args, (), (chunk_id))

using normativa_tools = agentio::toolset<search_normativa, search_sentencias, get_article, get_related_chunks>;

/// The toolset over `env`, with Spanish validation messages.
normativa_tools make_tools(tool_environment const& env);

} // namespace normativa

template<>
struct agentio::field_traits<normativa::search_normativa::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "query",
            .description = "Palabras clave técnico-legales (3-6 términos)",
            .min_length = 1,
            .max_length = 300},
        {.name = "top_k", .description = "Número de resultados", .minimum = 1, .maximum = 15, .default_value = "8"},
    };
};

template<>
struct agentio::field_traits<normativa::search_sentencias::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "query",
            .description = "Palabras clave de búsqueda jurisprudencial",
            .min_length = 1,
            .max_length = 300},
        {.name = "top_k", .description = "Número de resultados", .minimum = 1, .maximum = 10, .default_value = "5"},
    };
};

template<>
struct agentio::field_traits<normativa::get_article::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "article_number",
            .description = "Número de artículo, con apartado opcional, o la disposición: \"48\", \"48.4\", "
                           "\"disposición adicional décima\"",
            .min_length = 1,
            .max_length = 80},
        {.name = "law_name",
            .description = "Nombre de la ley, p. ej. \"Estatuto de los Trabajadores\"",
            .min_length = 1,
            .max_length = 200},
    };
};

template<>
struct agentio::field_traits<normativa::get_related_chunks::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "chunk_id", .description = "El id del fragmento (número entero, o texto con el número)"},
    };
};
