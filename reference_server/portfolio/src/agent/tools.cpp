// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/tools.hpp"

#include "charts/format.hpp"
#include "portfolio/table_metadata.hpp"

#include <agentio/json_text.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace portfolio::agent {

namespace asio = boost::asio;
namespace json = boost::json;
using agentio::tool_result;

namespace {

// The renames of the search endpoints: the API's English body fields to the
// tools' Spanish parameters.
constexpr field_rename search_renames[] = {{"filters", "filtros"}, {"order_by", "orden_campo"},
    {"order_dir", "orden_direccion"}, {"limit", "limite"}, {"offset", "desplazamiento"}};

json::array filters_json(std::optional<std::vector<filtro>> const& filtros)
{
    json::array out;
    if(!filtros)
        return out;
    for(auto const& f : *filtros)
    {
        json::object o{{"field", f.field}, {"operator", boost::describe::enum_to_string(f.op, "eq")}};
        if(f.value)
            o["value"] = *f.value;
        out.push_back(std::move(o));
    }
    return out;
}

std::string unknown_table(std::string_view tabla)
{
    return "Tabla '" + std::string(tabla) + "' no disponible. Usa listar_tablas para ver las tablas disponibles.";
}

std::string search_tables_list()
{
    std::string s;
    for(auto const& t : tables)
        if(t.soporta_busqueda)
            s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

json::array const* member_array(json::value const& v, std::string_view key)
{
    auto const* o = v.if_object();
    auto const* m = o ? o->if_contains(key) : nullptr;
    return m ? m->if_array() : nullptr;
}

std::int64_t member_int(json::value const& v, std::string_view key, std::int64_t fallback = 0)
{
    auto const* o = v.if_object();
    auto const* m = o ? o->if_contains(key) : nullptr;
    if(m && m->is_int64())
        return m->get_int64();
    if(m && m->is_uint64())
        return static_cast<std::int64_t>(m->get_uint64());
    return fallback;
}

double as_double(json::value const& v)
{
    if(v.is_double())
        return v.get_double();
    if(v.is_int64())
        return static_cast<double>(v.get_int64());
    if(v.is_uint64())
        return static_cast<double>(v.get_uint64());
    return 0;
}

tool_result unexpected_answer()
{
    return tool_result::error(
        "Respuesta inesperada de la API: falta un campo de la respuesta. Consulta los logs del backend.");
}

// Keeps `campos` of each row, in the order asked; an unknown one is an error.
std::optional<std::string> project(json::array& rows, std::vector<std::string> const& campos, std::string_view tabla)
{
    if(rows.empty())
        return std::nullopt;
    if(auto const* first = rows.front().if_object())
        for(auto const& c : campos)
            if(!first->contains(c))
            {
                std::string known;
                for(auto const& kv : *first)
                    known += (known.empty() ? "" : ", ") + std::string(kv.key());
                return "campos: campo desconocido '" + c + "' en la tabla " + std::string(tabla) +
                    " (campos: " + known + ")";
            }
    for(auto& row : rows)
    {
        auto* o = row.if_object();
        if(!o)
            continue;
        json::object kept;
        for(auto const& c : campos)
            if(auto const* v = o->if_contains(c))
                kept[c] = *v;
        row = std::move(kept);
    }
    return std::nullopt;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

enum class nulls
{
    keep,
    drop
};

// A JSON result trimmed to the model's budget, with a note when rows were
// dropped. Null members go only from database rows (`nulls::drop`), never
// from an answer whose null means something (the NULL group of a count).
// `offset` is known for paginated answers, so the note can say exactly where
// the next page starts.
tool_result finish(json::value out, tool_environment const& env, std::string summary, nulls rows_nulls = nulls::keep,
    std::optional<std::int64_t> offset = std::nullopt)
{
    auto options = env.compact;
    options.drop_null_members = options.drop_null_members && rows_nulls == nulls::drop;
    auto const report = agentio::compact_json(out, options);
    if(report.truncated() && out.is_object())
    {
        std::string nota = "Resultado recortado para no exceder el contexto:";
        for(auto const& a : report.arrays)
        {
            nota += " " + (a.pointer.empty() ? std::string("la lista") : "'" + a.pointer.substr(1) + "'") +
                " muestra los primeros " + std::to_string(a.kept) + " de " + std::to_string(a.kept + a.dropped) +
                " elementos.";
            if(a.pointer == "/datos" && offset)
                nota += " Continúa con desplazamiento=" + std::to_string(*offset + static_cast<std::int64_t>(a.kept)) +
                    ", o pide solo los campos necesarios con 'campos'.";
        }
        out.get_object()["nota"] = nota;
        summary += " (recortado)";
    }
    tool_result r = tool_result::json(std::move(out));
    r.summary = std::move(summary);
    return r;
}

// The paginated answer {"total","datos","limite","desplazamiento"} from the API's {"total","data","limit","offset"}.
tool_result paged_result(api_result& r, std::optional<std::vector<std::string>> const& campos, std::string_view tabla,
    tool_environment const& env)
{
    auto* rows = r.body.is_object() ? r.body.get_object().if_contains("data") : nullptr;
    if(!rows || !rows->is_array())
        return unexpected_answer();
    auto& datos = rows->get_array();
    if(campos)
        if(auto e = project(datos, *campos, tabla))
            return tool_result::error(*e);
    std::int64_t const total = member_int(r.body, "total");
    std::int64_t const offset = member_int(r.body, "offset");
    std::size_t const n = datos.size();
    json::object out;
    out["total"] = total;
    out["datos"] = std::move(datos);
    out["limite"] = member_int(r.body, "limit");
    out["desplazamiento"] = offset;
    return finish(std::move(out), env, plural(n, "fila", "filas") + " de " + std::to_string(total), nulls::drop,
        offset);
}

// The search body of the API from the tools' parameters.
json::object search_body(std::optional<std::vector<filtro>> const& filtros, std::optional<std::string> const& orden,
    direccion dir, std::int64_t limite, std::int64_t desplazamiento)
{
    json::object body{{"filters", filters_json(filtros)}, {"limit", limite}, {"offset", desplazamiento}};
    if(orden)
    {
        body["order_by"] = *orden;
        body["order_dir"] = dir == direccion::desc ? "desc" : "asc";
    }
    return body;
}

// The schema advertises the documented default (50); an operator's DEFAULT_QUERY_ROWS
// is what a call without `limite` really gets, within MAX_QUERY_ROWS.
std::int64_t clamp_rows(std::optional<std::int64_t> limite, tool_environment const& env)
{
    return std::clamp<std::int64_t>(limite.value_or(env.default_rows), 1, env.max_rows);
}

// One POST /{prefix}/aggregate: its groups (each an object, with "valor"
// when grouped), whether the API cut them, or the error the model reads.
struct aggregate_reply
{
    json::array groups;
    bool truncated = false;
    std::optional<tool_result> failure;
};

asio::awaitable<aggregate_reply> aggregate(tool_environment const& env, std::string_view prefix, json::object body,
    std::string_view subject, std::span<field_rename const> renames, std::string_view traceparent)
{
    bool const grouped = body.contains("group_by");
    auto target = env.api->url({prefix, "aggregate"});
    auto r = co_await env.api->post(std::move(target), body, traceparent);
    aggregate_reply out;
    if(!r.ok())
    {
        out.failure = tool_result::error(describe_api_failure(r, subject, env.api->base_url(), renames));
        co_return out;
    }
    auto* o = r.body.if_object();
    auto* groups = o ? o->if_contains("groups") : nullptr;
    if(!groups || !groups->is_array())
    {
        out.failure = unexpected_answer();
        co_return out;
    }
    for(auto const& g : groups->get_array())
        if(!g.is_object() || (grouped && !g.get_object().contains("valor")))
        {
            out.failure = unexpected_answer();
            co_return out;
        }
    out.groups = std::move(groups->get_array());
    auto const* truncated = o->if_contains("truncated");
    out.truncated = truncated && truncated->is_bool() && truncated->get_bool();
    co_return out;
}

} // namespace

std::string describe_api_failure(api_result const& r, std::string_view subject, std::string_view base_url,
    std::span<field_rename const> renames)
{
    switch(r.failure)
    {
    case api_failure::none: return {};
    case api_failure::unreachable:
        return "Error: No se puede conectar con la API. Asegúrate de que el backend está ejecutándose en " +
            std::string(base_url) + ".";
    case api_failure::not_found: return "No se encontraron datos para " + std::string(subject) + ".";
    case api_failure::invalid:
    {
        std::string detail = r.detail;
        for(auto const& [api_name, tool_name] : renames)
            if(detail.starts_with(api_name) && detail.size() > api_name.size() &&
                std::string_view(":[.").find(detail[api_name.size()]) != std::string_view::npos)
            {
                detail.replace(0, api_name.size(), tool_name);
                break;
            }
        return "Error en los parámetros de búsqueda: " + detail + ".";
    }
    case api_failure::server_error: return "Error interno del servidor API. Consulta los logs del backend.";
    case api_failure::unexpected: break;
    }
    return "Respuesta inesperada de la API (" + r.detail + "). Consulta los logs del backend.";
}

// ---------------------------------------------------------------------------

asio::awaitable<tool_result> buscar_iniciativas::operator()(args a, agentio::tool_context& ctx) const
{
    auto body = search_body(a.filtros, a.orden_campo, a.orden_direccion, clamp_rows(a.limite, *env), a.desplazamiento);
    auto target = env->api->url({"datos-relevantes", "search"});
    auto r = co_await env->api->post(std::move(target), body, ctx.traceparent);
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, "datos_relevantes", env->api->base_url(), search_renames));
    co_return paged_result(r, a.campos, "datos_relevantes", *env);
}

asio::awaitable<tool_result> buscar_en_tabla::operator()(args a, agentio::tool_context& ctx) const
{
    auto const* t = find_table_by_name(a.tabla);
    if(!t)
        co_return tool_result::error(unknown_table(a.tabla));
    std::int64_t const limite = clamp_rows(a.limite, *env);
    api_result r;
    if(t->soporta_busqueda)
    {
        auto target = env->api->url({t->prefix, "search"});
        auto const body = search_body(a.filtros, a.orden_campo, a.orden_direccion, limite, a.desplazamiento);
        r = co_await env->api->post(std::move(target), body, ctx.traceparent);
    }
    else
    {
        if((a.filtros && !a.filtros->empty()) || a.orden_campo)
            co_return tool_result::error("La tabla '" + a.tabla +
                "' no admite búsqueda con filtros ni ordenación: solo listado paginado (limite, desplazamiento). "
                "Tablas con filtros: " +
                search_tables_list() + ".");
        auto target = env->api->url({t->prefix},
            {{"limit", std::to_string(limite)}, {"offset", std::to_string(a.desplazamiento)}});
        r = co_await env->api->get(std::move(target), ctx.traceparent);
    }
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, a.tabla, env->api->base_url(), search_renames));
    co_return paged_result(r, a.campos, a.tabla, *env);
}

asio::awaitable<tool_result> obtener_iniciativa::operator()(args a, agentio::tool_context& ctx) const
{
    auto target = env->api->url({"portfolio", a.portfolio_id});
    auto r = co_await env->api->get(std::move(target), ctx.traceparent);
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, a.portfolio_id, env->api->base_url()));
    auto const* tablas = r.body.is_object() ? r.body.get_object().if_contains("tablas") : nullptr;
    if(!tablas || !tablas->is_object())
        co_return unexpected_answer();
    // Only the tables that say something about the initiative: no nulls, no empty lists.
    json::object kept;
    std::size_t rows = 0;
    for(auto const& kv : tablas->get_object())
    {
        auto const& v = kv.value();
        if(v.is_null() || (v.is_array() && v.get_array().empty()))
            continue;
        if(auto const* o = v.if_object(); o && kv.key() == "grupos_iniciativas")
        {
            json::object roles;
            for(auto const& role : *o)
                if(role.value().is_array() && !role.value().get_array().empty())
                {
                    rows += role.value().get_array().size();
                    roles[role.key()] = role.value();
                }
            if(!roles.empty())
                kept[kv.key()] = std::move(roles);
            continue;
        }
        rows += v.is_array() ? v.get_array().size() : 1;
        kept[kv.key()] = v;
    }
    std::size_t const n = kept.size();
    json::object out{{"portfolio_id", a.portfolio_id}, {"tablas", std::move(kept)}};
    co_return finish(std::move(out), *env, plural(n, "tabla", "tablas") + ", " + plural(rows, "registro", "registros"),
        nulls::drop);
}

asio::awaitable<tool_result> obtener_documentos::operator()(args a, agentio::tool_context& ctx) const
{
    std::int64_t const limite = clamp_rows(a.limite, *env);
    std::string const subject = a.portfolio_id ? *a.portfolio_id : std::string("documentos");
    // One search: the initiative and the state as plain filters, the text as
    // an `any` group (the summary or the file name), first rows by id.
    json::array filters;
    if(a.portfolio_id)
        filters.push_back({{"field", "portfolio_id"}, {"operator", "eq"}, {"value", *a.portfolio_id}});
    if(a.estado)
        filters.push_back({{"field", "estado"}, {"operator", "eq"}, {"value", *a.estado}});
    if(a.texto_busqueda)
    {
        json::array any;
        for(char const* field : {"resumen_documento", "nombre_fichero"})
            any.push_back({{"field", field}, {"operator", "ilike"}, {"value", "%" + *a.texto_busqueda + "%"}});
        filters.push_back(json::object{{"any", std::move(any)}});
    }
    json::object body{{"filters", std::move(filters)}, {"order_by", "id"}, {"limit", limite}, {"offset", 0}};
    auto target = env->api->url({"documentos", "search"});
    auto r = co_await env->api->post(std::move(target), body, ctx.traceparent);
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, subject, env->api->base_url(), search_renames));
    auto* rows = r.body.is_object() ? r.body.get_object().if_contains("data") : nullptr;
    if(!rows || !rows->is_array())
        co_return unexpected_answer();
    json::array documentos = std::move(rows->get_array());
    std::int64_t const total = member_int(r.body, "total");

    // The extracted sections of each document, when one initiative is asked for.
    if(a.portfolio_id && !documentos.empty())
    {
        auto items_target = env->api->url({"documentos-items", "portfolio", *a.portfolio_id});
        auto items = co_await env->api->get(std::move(items_target), ctx.traceparent);
        if(!items.ok())
            co_return tool_result::error(describe_api_failure(items, subject, env->api->base_url()));
        std::map<std::int64_t, json::array> by_document;
        if(auto const* list = items.body.if_array())
            for(auto const& item : *list)
            {
                json::value copy = item;
                if(auto* o = copy.if_object())
                {
                    o->erase("portfolio_id");
                    o->erase("documento_id");
                }
                by_document[member_int(item, "documento_id")].push_back(std::move(copy));
            }
        for(auto& d : documentos)
            if(auto* o = d.if_object())
            {
                auto it = by_document.find(member_int(d, "id"));
                if(it != by_document.end())
                    (*o)["items"] = std::move(it->second);
            }
    }
    std::size_t const n = documentos.size();
    json::object out{{"total", total}, {"documentos", std::move(documentos)}};
    co_return finish(std::move(out), *env, plural(n, "documento", "documentos"), nulls::drop);
}

asio::awaitable<tool_result> contar_iniciativas::operator()(args a, agentio::tool_context& ctx) const
{
    // Counted by the API in SQL: exact for any number of initiatives.
    json::object body{{"group_by", a.campo_agrupacion}, {"metrics", json::array{json::object{{"op", "count"}}}},
        {"filters", filters_json(a.filtros)}};
    static constexpr field_rename renames[] = {{"group_by", "campo_agrupacion"}, {"filters", "filtros"}};
    auto reply = co_await aggregate(*env, "datos-relevantes", body, "datos_relevantes", renames, ctx.traceparent);
    if(reply.failure)
        co_return std::move(*reply.failure);
    json::array grupos;
    std::int64_t total = 0;
    for(auto const& g : reply.groups)
    {
        std::int64_t const n = member_int(g, "count");
        total += n;
        grupos.push_back({{"valor", g.get_object().at("valor")}, {"cantidad", n}});
    }
    if(reply.truncated)
    {
        // More groups than the API lists: the total comes from one more count.
        body.erase("group_by");
        auto all = co_await aggregate(*env, "datos-relevantes", body, "datos_relevantes", renames, ctx.traceparent);
        if(all.failure)
            co_return std::move(*all.failure);
        total = all.groups.empty() ? 0 : member_int(all.groups.front(), "count");
    }
    std::size_t const n = grupos.size();
    json::object out{{"total_iniciativas", total}, {"grupos", std::move(grupos)}};
    co_return finish(std::move(out), *env,
        plural(n, "grupo", "grupos") + ", " + plural(static_cast<std::size_t>(total), "iniciativa", "iniciativas"));
}

asio::awaitable<tool_result> totalizar_importes::operator()(args a, agentio::tool_context& ctx) const
{
    json::object body{
        {"metrics",
            json::array{json::object{{"op", "sum"}, {"field", a.campo_importe}}, json::object{{"op", "count"}}}},
        {"filters", filters_json(a.filtros)}};
    if(a.campo_agrupacion)
        body["group_by"] = *a.campo_agrupacion;
    static constexpr field_rename renames[] = {{"metrics[0].field", "campo_importe"}, {"group_by", "campo_agrupacion"},
        {"filters", "filtros"}};
    auto reply = co_await aggregate(*env, "datos-relevantes", body, "datos_relevantes", renames, ctx.traceparent);
    if(reply.failure)
        co_return std::move(*reply.failure);
    std::string const sum_key = "sum_" + a.campo_importe;
    auto sum_of = [&](json::value const& g) {
        auto const* s = g.get_object().if_contains(sum_key);
        return s ? as_double(*s) : 0.0; // a group without any amount sums to 0, as a Python defaultdict would
    };
    double total = 0;
    std::int64_t count = 0;
    json::array grupos;
    for(auto const& g : reply.groups)
    {
        double const s = sum_of(g);
        total += s;
        count += member_int(g, "count");
        if(a.campo_agrupacion)
            grupos.push_back({{"valor", g.get_object().at("valor")}, {"total", s},
                {"cantidad", member_int(g, "count")}});
    }
    if(reply.truncated)
    {
        body.erase("group_by");
        auto all = co_await aggregate(*env, "datos-relevantes", body, "datos_relevantes", renames, ctx.traceparent);
        if(all.failure)
            co_return std::move(*all.failure);
        total = all.groups.empty() ? 0.0 : sum_of(all.groups.front());
        count = all.groups.empty() ? 0 : member_int(all.groups.front(), "count");
    }
    // Sums of cents in binary floating point: round to the cent for the reader.
    auto cents = [](double v) { return std::round(v * 100.0) / 100.0; };
    for(auto& g : grupos)
        g.get_object()["total"] = cents(g.get_object()["total"].get_double());
    json::object out{{"total_general", cents(total)}};
    std::size_t const n = grupos.size();
    if(a.campo_agrupacion)
        out["grupos"] = std::move(grupos);
    out["cantidad"] = count;
    std::string summary = a.campo_agrupacion ? plural(n, "grupo", "grupos") + ", " : std::string();
    summary += "total " + charts::format_euros(cents(total));
    co_return finish(std::move(out), *env, std::move(summary));
}

asio::awaitable<tool_result> listar_tablas::operator()(args, agentio::tool_context& ctx) const
{
    auto target = env->api->url({"tables"});
    auto r = co_await env->api->get(std::move(target), ctx.traceparent);
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, "las tablas", env->api->base_url()));
    auto const* data = member_array(r.body, "data");
    if(!data)
        co_return unexpected_answer();
    json::array out;
    for(auto const& t : *data)
    {
        auto const* o = t.if_object();
        auto const* tabla = o ? o->if_contains("tabla") : nullptr;
        auto const* descripcion = o ? o->if_contains("descripcion") : nullptr;
        auto const* search = o ? o->if_contains("soporta_busqueda") : nullptr;
        if(!tabla || !descripcion || !search || !o->contains("num_registros"))
            co_return unexpected_answer();
        out.push_back({{"tabla", *tabla}, {"descripcion", *descripcion},
            {"num_registros", member_int(t, "num_registros")}, {"soporta_busqueda", *search}});
    }
    tool_result result = tool_result::json(std::move(out));
    result.summary = plural(data->size(), "tabla", "tablas");
    co_return result;
}

asio::awaitable<tool_result> describir_tabla::operator()(args a, agentio::tool_context& ctx) const
{
    auto const* t = find_table_by_name(a.tabla);
    if(!t)
        co_return tool_result::error(unknown_table(a.tabla));
    auto target = env->api->url({"tables", t->prefix});
    auto r = co_await env->api->get(std::move(target), ctx.traceparent);
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, a.tabla, env->api->base_url()));
    auto const* columns = member_array(r.body, "campos");
    if(!columns)
        co_return unexpected_answer();
    json::array campos;
    for(auto const& c : *columns)
    {
        auto const* o = c.if_object();
        auto const* nombre = o ? o->if_contains("nombre") : nullptr;
        if(!nombre || !nombre->is_string())
            co_return unexpected_answer();
        campos.push_back(*nombre);
    }
    std::size_t const fields = campos.size();
    json::object out{{"tabla", t->name}, {"descripcion", t->descripcion}, {"campos", std::move(campos)},
        {"num_registros", member_int(r.body, "num_registros")}, {"soporta_busqueda", t->soporta_busqueda}};
    co_return finish(std::move(out), *env, plural(fields, "campo", "campos"));
}

asio::awaitable<tool_result> obtener_valores_campo::operator()(args a, agentio::tool_context& ctx) const
{
    auto const* t = find_table_by_name(a.tabla);
    if(!t)
        co_return tool_result::error(unknown_table(a.tabla));
    // Distinct values straight from SQL, in reading order (numbers, then
    // text ignoring case, null last), with their exact number.
    auto target = env->api->url({t->prefix, "distinct"}, {{"field", a.campo}, {"limit", std::to_string(a.limite)}});
    auto r = co_await env->api->get(std::move(target), ctx.traceparent);
    static constexpr field_rename renames[] = {{"field", "campo"}, {"limit", "limite"}};
    if(!r.ok())
        co_return tool_result::error(describe_api_failure(r, a.tabla, env->api->base_url(), renames));
    auto const* data = member_array(r.body, "data");
    if(!data)
        co_return unexpected_answer();
    json::array valores;
    for(auto const& v : *data)
    {
        auto const* o = v.if_object();
        auto const* valor = o ? o->if_contains("valor") : nullptr;
        if(!valor)
            co_return unexpected_answer();
        valores.push_back(*valor);
    }
    std::int64_t const distinct = member_int(r.body, "total");
    json::object out{{"tabla", t->name}, {"campo", a.campo}, {"valores", std::move(valores)},
        {"total_distintos", distinct}};
    co_return finish(std::move(out), *env,
        plural(static_cast<std::size_t>(distinct), "valor distinto", "valores distintos"));
}

asio::awaitable<tool_result> generar_grafico::operator()(args a, agentio::tool_context&) const
{
    if(!env->charts)
        co_return tool_result::error("Los gráficos no están disponibles en este servidor.");
    charts::chart_spec spec;
    switch(a.tipo)
    {
    case tipo_grafico::bar: spec.type = charts::chart_type::bar; break;
    case tipo_grafico::pie: spec.type = charts::chart_type::pie; break;
    case tipo_grafico::line: spec.type = charts::chart_type::line; break;
    case tipo_grafico::stacked_bar: spec.type = charts::chart_type::stacked_bar; break;
    }
    switch(a.unidad)
    {
    case unidad_valores::euros: spec.unit = charts::value_unit::euros; break;
    case unidad_valores::numero: spec.unit = charts::value_unit::number; break;
    case unidad_valores::porcentaje: spec.unit = charts::value_unit::percent; break;
    }
    spec.title = a.titulo;
    spec.categories = std::move(a.categorias);
    for(auto& s : a.series)
    {
        // The model writes percentages as the data holds them (0..100); the renderer takes fractions.
        if(a.unidad == unidad_valores::porcentaje)
            for(auto& v : s.valores)
                v /= 100.0;
        spec.series.push_back({std::move(s.nombre), std::move(s.valores)});
    }
    spec.x_label = a.etiqueta_x.value_or("");
    spec.y_label = a.etiqueta_y.value_or("");
    if(auto problem = charts::check_spec(spec); !problem.empty())
    {
        // The renderer names its own fields; the model knows the tool's.
        for(auto [from, to] : {std::pair<std::string_view, std::string_view>{"values", "valores"},
                {"categories", "categorias"}, {"title", "titulo"}})
            for(auto pos = problem.find(from); pos != std::string::npos; pos = problem.find(from, pos + to.size()))
                problem.replace(pos, from.size(), to);
        co_return tool_result::error("Error en los datos del gráfico: " + problem + ".");
    }
    std::string file;
    std::string png_base64;
    try
    {
        auto const png = charts::render_png(spec, env->chart_options);
        file = env->charts->save(png);
        if(env->chart_image_in_result)
        {
            png_base64.resize(4 * ((png.size() + 2) / 3) + 1); // OpenSSL writes a final NUL
            png_base64.resize(static_cast<std::size_t>(EVP_EncodeBlock(
                reinterpret_cast<unsigned char*>(png_base64.data()), png.data(), static_cast<int>(png.size()))));
        }
    }
    catch(std::exception const& e)
    {
        co_return tool_result::error(std::string("No se pudo generar el gráfico: ") + e.what());
    }
    // The title inside ![...] must not close the bracket or break the line.
    std::string alt;
    for(char c : a.titulo)
        alt += (c == '[' || c == ']') ? ' ' : (c == '\n' || c == '\r') ? ' ' : c;
    tool_result r = tool_result::text("![" + alt + "](" + env->chart_url_prefix + file + ")");
    r.structured = json::object{{"imagen", env->chart_url_prefix + file}, {"titulo", a.titulo},
        {"tipo", boost::describe::enum_to_string(a.tipo, "bar")}};
    if(!png_base64.empty())
        r.add_image("image/png", std::move(png_base64));
    r.summary = "Gráfico " + std::string(boost::describe::enum_to_string(a.tipo, "bar")) + " con " +
        plural(spec.categories.size(), "categoría", "categorías");
    co_return r;
}

portfolio_tools make_portfolio_tools(tool_environment const& env, agentio::messages const& texts)
{
    agentio::toolset_options options;
    options.validation.texts = texts;
    return portfolio_tools(options, buscar_iniciativas{{&env}}, buscar_en_tabla{{&env}}, obtener_iniciativa{{&env}},
        obtener_documentos{{&env}}, contar_iniciativas{{&env}}, totalizar_importes{{&env}}, listar_tablas{{&env}},
        describir_tabla{{&env}}, obtener_valores_campo{{&env}}, generar_grafico{{&env}});
}

} // namespace portfolio::agent
