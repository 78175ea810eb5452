// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "prompts.hpp"

#include <agentio/json_text.hpp>

#include <map>
#include <string_view>

namespace facturas {

namespace json = boost::json;

namespace {

// What the tables of the invoice database (Chinook, a music store) hold.
std::map<std::string_view, std::string_view> const table_notes{
    {"Invoice",
        "facturas: una por compra; InvoiceDate es la fecha (texto 'AAAA-MM-DD HH:MM:SS'), Total el importe "
        "en dólares, Billing* la dirección de facturación (BillingCountry es el país)"},
    {"InvoiceLine",
        "líneas de factura: la pista vendida (TrackId), su precio unitario (UnitPrice) y la cantidad "
        "(Quantity); el importe de una línea es UnitPrice * Quantity"},
    {"Customer",
        "clientes: nombre, empresa, dirección, país (Country), correo; SupportRepId es el empleado que les "
        "atiende"},
    {"Employee", "empleados: nombre, cargo (Title), a quién reportan (ReportsTo), fechas de nacimiento y contratación"},
    {"Track",
        "pistas (canciones): álbum, formato (MediaTypeId), género (GenreId), compositor, duración en "
        "milisegundos, tamaño en bytes y precio unitario"},
    {"Album", "álbumes: título y artista"},
    {"Artist", "artistas"},
    {"Genre", "géneros musicales"},
    {"MediaType", "formatos de los ficheros (MPEG, AAC…)"},
    {"Playlist", "listas de reproducción"},
    {"PlaylistTrack", "qué pistas tiene cada lista de reproducción"},
};

// A string member's text, viewed in place (empty when absent or not a string).
std::string_view field_text(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

} // namespace

std::string describe_schema(json::object const& schema)
{
    std::string out;
    auto const* tables = schema.if_contains("tables");
    if(!tables || !tables->is_array())
        return out;
    for(auto const& t : tables->get_array())
    {
        auto const* o = t.if_object();
        if(!o)
            continue;
        std::string_view const name = field_text(*o, "name");
        out += "Tabla ";
        out += name;
        if(auto const* rows = o->if_contains("row_count"); rows && rows->is_number())
            out += " (" + agentio::to_json_text(*rows) + " filas)";
        if(auto const note = table_notes.find(name); note != table_notes.end())
            out.append(": ").append(note->second);
        out += "\n  Columnas: ";
        bool first = true;
        if(auto const* columns = o->if_contains("columns"); columns && columns->is_array())
            for(auto const& c : columns->get_array())
            {
                auto const* co = c.if_object();
                if(!co)
                    continue;
                out += first ? "" : ", ";
                first = false;
                out += field_text(*co, "name");
                if(auto type = field_text(*co, "type"); !type.empty())
                    out.append(" ").append(type);
                if(auto const* pk = co->if_contains("primary_key"); pk && pk->is_bool() && pk->get_bool())
                    out += " (clave primaria)";
            }
        if(auto const* fks = o->if_contains("foreign_keys"); fks && fks->is_array() && !fks->get_array().empty())
        {
            out += "\n  Claves ajenas: ";
            first = true;
            for(auto const& f : fks->get_array())
            {
                auto const* fo = f.if_object();
                if(!fo)
                    continue;
                out += first ? "" : ", ";
                first = false;
                out.append(field_text(*fo, "column"))
                    .append(" → ")
                    .append(field_text(*fo, "references_table"))
                    .append(".")
                    .append(field_text(*fo, "references_column"));
            }
        }
        out += "\n";
    }
    return out;
}

std::string sql_system_prompt(std::string const& schema_text, unsigned max_rows)
{
    return "Eres un experto en SQL de SQLite que responde preguntas sobre las facturas de una tienda de música.\n"
           "Escribe UNA sola consulta SELECT (puede empezar por WITH) que responda a la pregunta del usuario con "
           "este esquema:\n\n" +
        schema_text +
        "\nReglas:\n"
        "- Devuelve solo la consulta SQL, sin explicaciones ni comentarios.\n"
        "- Solo lectura: nunca INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, ATTACH ni PRAGMA.\n"
        "- Usa solo las tablas y columnas del esquema, con sus nombres exactos (están en inglés).\n"
        "- Da nombres claros a las columnas calculadas con AS.\n"
        "- Las fechas son texto 'AAAA-MM-DD HH:MM:SS': usa strftime('%Y', InvoiceDate) para el año.\n"
        "- Redondea los importes a 2 decimales con ROUND(x, 2).\n"
        "- Como mucho " +
        std::to_string(max_rows) +
        " filas; ordena el resultado cuando la pregunta hable de los mayores, menores o primeros.\n"
        "- Si la pregunta se refiere a la conversación anterior, usa las consultas anteriores como contexto.";
}

std::string answer_system_prompt()
{
    return "Eres el asistente de facturación de una tienda de música. Responde en español, de forma breve y clara, "
           "usando únicamente los datos que se te dan (el resultado de una consulta a la base de datos). No "
           "inventes cifras ni hagas cálculos que no estén en los datos. Si el resultado está vacío, dilo. Los "
           "importes están en dólares.";
}

std::string repair_message(std::string const& sqlite_message)
{
    return "SQLite rechazó la consulta: " + sqlite_message + "\nCorrígela y devuelve solo la consulta SQL corregida.";
}

std::string answer_message(std::string const& question, std::string const& sql, json::object const& result)
{
    // The rows go as JSON, at most 50: the answer needs the data, not every row of a long list.
    json::object data;
    data["columns"] = result.contains("columns") ? result.at("columns") : json::array();
    json::array rows;
    if(auto const* r = result.if_contains("rows"); r && r->is_array())
        for(auto const& row : r->get_array())
        {
            if(rows.size() == 50)
                break;
            rows.push_back(row);
        }
    data["rows"] = std::move(rows);
    data["row_count"] = result.contains("row_count") ? result.at("row_count") : json::value(0);
    return "Pregunta: " + question + "\n\nConsulta ejecutada:\n" + sql + "\n\nResultados de la consulta (JSON):\n" +
        agentio::to_json_text(data) + "\n\nResponde a la pregunta con estos datos.";
}

} // namespace facturas
