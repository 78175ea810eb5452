// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "prompts.hpp"

#include "tools.hpp"

namespace normativa {

namespace {

constexpr char const* expert = R"(Eres un experto en legislación laboral y de Seguridad Social española.
Te proporcionamos fragmentos de normativa como contexto. Úsalos como base principal, pero puedes razonar, conectar
ideas entre fragmentos y aplicar lógica jurídica para dar respuestas completas y útiles.

Cita la ley y el artículo cuando lo uses (por ejemplo, «artículo 38 del Estatuto de los Trabajadores»). Si los
fragmentos no bastan para responder con seguridad, dilo con claridad y explica qué falta; no inventes artículos ni
cifras. Responde en español, de forma clara y ordenada, pensando en una persona trabajadora sin formación jurídica.
Comprueba que toda la respuesta es coherente entre sí y con los fragmentos antes de concluir.)";

constexpr char const* colloquial = R"(### Equivalencias coloquiales → términos legales
- "baja de maternidad" → "suspensión contrato nacimiento cuidado menor"
- "despido"            → "extinción contrato"
- "paro"               → "prestación desempleo"
- "baja médica"        → "incapacidad temporal"
- "pensión"            → "jubilación prestación contributiva"
- "finiquito"          → "liquidación haberes extinción contrato")";

} // namespace

std::string agent_system_prompt(unsigned max_tool_rounds)
{
    std::string out = expert;
    out += R"(

## Instrucciones para el uso de tools

Tienes acceso a una base de datos de normativa laboral y de Seguridad Social española.
Debes usar las tools para buscar información ANTES de responder.

### Estrategia de búsqueda
1. Usa search_normativa para buscar por palabras clave concisas (3-6 palabras técnico-legales).
2. Si la pregunta involucra múltiples conceptos, haz varias búsquedas, una por concepto.
3. Si conoces el artículo exacto, usa get_article para obtenerlo directamente.
4. Si un chunk tiene referencias relevantes, usa get_related_chunks para expandirlas.
5. Si los resultados son insuficientes, reformula con sinónimos o términos más específicos.

### Cuándo re-buscar
- Si los fragmentos obtenidos no responden completamente la pregunta, busca más.
- Máximo )";
    out += std::to_string(max_tool_rounds);
    out += R"( rondas de tool calls por pregunta.

)";
    out += colloquial;
    out += '\n';
    return out;
}

std::string expansion_system_prompt()
{
    std::string out = R"(Convierte la última pregunta de la conversación en una consulta de búsqueda sobre normativa
laboral y de Seguridad Social española: de 3 a 6 palabras clave técnico-legales, en una sola línea, sin comillas,
sin explicación. Traduce los términos coloquiales a los legales.

)";
    out += colloquial;
    out += '\n';
    return out;
}

std::string answer_system_prompt(std::vector<agentio::retrieval::chunk> const& context)
{
    std::string out = expert;
    out += "\n\n## Fragmentos de normativa\n";
    if(context.empty())
        out += "\n(No se encontró ningún fragmento para esta pregunta: dilo y no inventes artículos.)\n";
    for(auto const& c : context)
    {
        out += "\n[" + std::to_string(c.id) + "] " + c.law + " — " + c.title;
        if(!c.paragraph.empty())
            out += " (apartado " + c.paragraph + ")";
        out += "\n" + c.text + "\n";
    }
    return out;
}

std::string keywords_from_expansion(std::string_view answer, std::string_view fallback)
{
    // The first non-empty line, without list markers or quotes.
    std::string line;
    std::size_t pos = 0;
    while(pos < answer.size() && line.empty())
    {
        auto nl = answer.find('\n', pos);
        if(nl == std::string_view::npos)
            nl = answer.size();
        for(char c : answer.substr(pos, nl - pos))
            if(c != '"' && c != '*' && c != '`')
                line += c;
        auto const first = line.find_first_not_of(" -•\t");
        line = first == std::string::npos ? std::string() : line.substr(first);
        pos = nl + 1;
    }
    if(line.size() > 300 || line.empty())
        return std::string(fallback);
    return line;
}

} // namespace normativa
