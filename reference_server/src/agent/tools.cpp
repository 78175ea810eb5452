#include "agent/tools.hpp"

#include "portfolio/table_metadata.hpp"

#include <algorithm>
#include <map>

namespace portfolio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

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

// A grouping key as the model should read it: text as is, null as null.
json::value group_key(json::value const& v)
{
    if(v.is_null() || v.is_string())
        return v;
    return json::value(agentio::to_json_text(v));
}

} // namespace

asio::awaitable<agentio::tool_result> contar_iniciativas::operator()(args a, agentio::tool_context&) const
{
    // datos_relevantes has one row per initiative: all of them fit in one page.
    json::object body{{"filters", filters_json(a.filtros)}, {"limit", 1000}};
    auto const r = co_await api->post("/datos-relevantes/search", body);
    if(!r.ok())
        co_return agentio::tool_result::error(r.error);
    auto const* rows = r.body.is_object() ? r.body.get_object().if_contains("data") : nullptr;
    if(!rows || !rows->is_array())
        co_return agentio::tool_result::error("Respuesta inesperada de la API");
    std::vector<std::pair<json::value, std::int64_t>> groups;
    for(auto const& row : rows->get_array())
    {
        auto const* value = row.is_object() ? row.get_object().if_contains(a.campo_agrupacion) : nullptr;
        if(!value)
            co_return agentio::tool_result::error("Campo desconocido en datos_relevantes: " + a.campo_agrupacion);
        auto key = group_key(*value);
        auto it = std::find_if(groups.begin(), groups.end(), [&](auto const& g) { return g.first == key; });
        if(it == groups.end())
            groups.emplace_back(std::move(key), 1);
        else
            ++it->second;
    }
    std::stable_sort(groups.begin(), groups.end(), [](auto const& x, auto const& y) { return x.second > y.second; });
    json::array grupos;
    for(auto const& [valor, cantidad] : groups)
        grupos.push_back({{"valor", valor}, {"cantidad", cantidad}});
    std::size_t const total = rows->get_array().size();
    auto result = agentio::tool_result::json({{"total_iniciativas", total}, {"grupos", std::move(grupos)}});
    result.summary = std::to_string(groups.size()) + (groups.size() == 1 ? " grupo, " : " grupos, ")
        + std::to_string(total) + " iniciativas";
    co_return result;
}

asio::awaitable<agentio::tool_result> listar_tablas::operator()(args, agentio::tool_context&) const
{
    json::array out;
    for(auto const& t : tables)
    {
        auto const r = co_await api->get("/" + std::string(t.prefix) + "?limit=1");
        json::value count = nullptr;
        if(r.ok() && r.body.is_object())
            if(auto const* total = r.body.get_object().if_contains("total"))
                count = *total;
        out.push_back({{"tabla", t.name}, {"descripcion", t.descripcion}, {"num_registros", count},
            {"soporta_busqueda", t.soporta_busqueda}});
    }
    auto result = agentio::tool_result::json(std::move(out));
    result.summary = std::to_string(tables.size()) + " tablas";
    co_return result;
}

portfolio_tools make_portfolio_tools(api_client const& api, agentio::message_language language)
{
    agentio::toolset_options options;
    options.validation.language = language;
    return portfolio_tools(options, contar_iniciativas{&api}, listar_tablas{&api});
}

} // namespace portfolio::agent
