// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "corpus.hpp"

#include <algorithm>
#include <charconv>
#include <regex>
#include <set>

namespace normativa {

namespace retrieval = agentio::retrieval;

std::vector<std::string> const& stop_words()
{
    // Function words and question words: what a question has and a law's
    // passage does not distinguish itself by.
    static std::vector<std::string> const words{"a", "al", "algo", "algun", "alguna", "algunas", "alguno", "algunos",
        "ante", "antes", "aquel", "aquella", "aquellas", "aquello", "aquellos", "aqui", "asi", "aun", "bajo", "bien",
        "cada", "como", "con", "contra", "cual", "cuales", "cualquier", "cuando", "cuanta", "cuantas", "cuanto",
        "cuantos", "de", "del", "desde", "donde", "dos", "el", "ella", "ellas", "ello", "ellos", "en", "entre", "era",
        "es", "esa", "esas", "ese", "eso", "esos", "esta", "estas", "este", "esto", "estos", "estoy", "fue", "ha",
        "han", "hasta", "hay", "la", "las", "le", "les", "lo", "los", "mas", "me", "mi", "mis", "mucho", "muy", "nada",
        "ni", "no", "nos", "nosotros", "o", "os", "otra", "otras", "otro", "otros", "para", "pero", "poco", "por",
        "porque", "que", "quien", "quienes", "se", "sea", "segun", "ser", "si", "sido", "sin", "sobre", "son", "su",
        "sus", "tal", "tambien", "te", "ti", "tu", "tus", "u", "un", "una", "unas", "uno", "unos", "usted", "ya", "yo",
        "puedo", "puede", "pueden", "tengo", "tiene", "tienen", "hacer", "hago", "pasa", "toca", "tocan", "vale"};
    return words;
}

retrieval::analysis_profile spanish_profile(bool stemming)
{
    // Snowball's Spanish stems: "vacaciones"/"vacación", "despido"/"despedir"
    // meet. Measured on the question set: recall@5 and MRR rise for every
    // method and form (docs/apps/normativa.md).
    return {.stop_words = stop_words(), .stemmer = stemming ? "spanish" : ""};
}

retrieval::analyzer spanish_analyzer(bool stemming)
{
    // libstemmer-dev always has Spanish: a failure here is a broken installation.
    return spanish_profile(stemming).make_analyzer().value();
}

namespace {

std::string_view trim(std::string_view s)
{
    while(!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while(!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> lines_of(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while(pos <= text.size())
    {
        auto nl = text.find('\n', pos);
        if(nl == std::string_view::npos)
            nl = text.size();
        out.push_back(trim(text.substr(pos, nl - pos)));
        pos = nl + 1;
    }
    return out;
}

// "Artículo 48. Título." → "48" (also "48 bis").
std::optional<std::string> article_heading(std::string_view line)
{
    static std::regex const re(R"(^Artículo (\d+(?: bis| ter| quater)?)\.(?:\s.*)?$)");
    std::match_results<std::string_view::const_iterator> m;
    if(!std::regex_match(line.begin(), line.end(), m, re))
        return std::nullopt;
    return m[1].str();
}

// "Disposición adicional décima. …" → "disposición adicional décima"
std::optional<std::string> disposition_heading(std::string_view line, std::string& kind)
{
    static std::regex const re(R"(^Disposición (adicional|transitoria|derogatoria|final) ([^\s.]+)\.(?:\s.*)?$)");
    std::match_results<std::string_view::const_iterator> m;
    if(!std::regex_match(line.begin(), line.end(), m, re))
        return std::nullopt;
    kind = m[1].str();
    return "disposición " + m[1].str() + " " + m[2].str();
}

bool roman_heading(std::string_view line, std::string_view word)
{
    if(!line.starts_with(word) || line.size() <= word.size() + 1 || line[word.size()] != ' ')
        return false;
    auto const rest = line.substr(word.size() + 1);
    return rest == "PRELIMINAR" ||
        std::all_of(rest.begin(), rest.end(), [](char c) { return c == 'I' || c == 'V' || c == 'X' || c == 'L'; });
}

bool section_heading(std::string_view line)
{
    static std::regex const re(R"(^Sección \d+\.ª .+$)");
    return std::regex_match(line.begin(), line.end(), re);
}

} // namespace

parsed_file parse_law_text(std::string_view text, structure_state& state)
{
    parsed_file out;
    article_text* open = nullptr;
    std::string* awaiting_name = nullptr; // a TÍTULO or CAPÍTULO line: its name is the next line
    for(auto line : lines_of(text))
    {
        if(line.empty())
        {
            if(open && !awaiting_name && !open->body.empty() && !open->body.ends_with("\n\n"))
                open->body += '\n';
            continue;
        }
        if(awaiting_name)
        {
            *awaiting_name += ". ";
            *awaiting_name += line;
            awaiting_name = nullptr;
            continue;
        }
        if(roman_heading(line, "TÍTULO"))
        {
            state = {std::string(line), {}, {}};
            awaiting_name = &state.part;
            continue;
        }
        if(roman_heading(line, "CAPÍTULO"))
        {
            state.chapter = line;
            state.section.clear();
            awaiting_name = &state.chapter;
            continue;
        }
        if(section_heading(line))
        {
            state.section = line;
            continue;
        }
        std::string kind;
        auto number = article_heading(line);
        if(!number)
        {
            number = disposition_heading(line, kind);
            if(number)
            {
                // Disposiciones sit outside the titles and chapters, grouped by kind.
                static constexpr std::pair<std::string_view, std::string_view> groups[] = {
                    {"adicional", "Disposiciones adicionales"}, {"transitoria", "Disposiciones transitorias"},
                    {"derogatoria", "Disposición derogatoria"}, {"final", "Disposiciones finales"}};
                for(auto [k, g] : groups)
                    if(k == kind)
                        state = {{}, std::string(g), {}};
            }
        }
        if(number)
        {
            out.articles.push_back({*number, std::string(line), state.part, state.chapter, state.section, {}});
            open = &out.articles.back();
            if(!out.first_number && !kind.size())
            {
                long n = 0;
                std::from_chars(number->data(), number->data() + number->size(), n);
                out.first_number = n;
            }
            continue;
        }
        if(open)
        {
            if(!open->body.empty() && !open->body.ends_with('\n'))
                open->body += '\n';
            open->body += line;
        }
    }
    for(auto& a : out.articles)
        while(!a.body.empty() && a.body.back() == '\n')
            a.body.pop_back();
    return out;
}

std::optional<long> first_article_number(std::string_view text)
{
    for(auto line : lines_of(text))
        if(auto n = article_heading(line))
        {
            long v = 0;
            std::from_chars(n->data(), n->data() + n->size(), v);
            return v;
        }
    return std::nullopt;
}

bool is_utf8(std::string_view s)
{
    std::size_t i = 0;
    while(i < s.size())
    {
        auto const b = static_cast<unsigned char>(s[i]);
        std::size_t n = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
        if(n == 0 || i + n > s.size() || (n == 2 && b < 0xC2))
            return false;
        std::uint32_t cp = n == 1 ? b : b & (0x7F >> n);
        for(std::size_t k = 1; k < n; ++k)
        {
            auto const c = static_cast<unsigned char>(s[i + k]);
            if((c & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n;
    }
    return true;
}

std::vector<std::string> find_references(std::string_view text, std::string_view own_article)
{
    // "artículo 48", "artículo 48.4", "artículos 40 y 41", "artículos 50, 51 y 52", "artículos 34.3 y 4"
    static std::regex const re(R"([Aa]rtículos?\s+(\d+(?:\.\d+)?(?:\s*(?:,|\by\b|\be\b|\bo\b)\s*\d+(?:\.\d+)?)*))");
    // A reference followed by another law's name is to that law.
    static std::regex const foreign(
        R"(^[^\w]*(?:[a-z]\)\s*)?(?:de|del)\s+(?:la\s+|el\s+)?(?:Ley|Real|Constitución|Código|Reglamento|texto refundido|Texto Refundido|Convenio|Directiva|Tratado|Decreto|Estatuto Básico))");
    static std::regex const item(R"((\d+)(?:\.(\d+))?)");
    std::vector<std::string> out;
    std::string const s(text);
    for(auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
    {
        auto const& m = *it;
        auto const after = s.substr(static_cast<std::size_t>(m.position(0) + m.length(0)), 80);
        // Skip ".c)" or ")" right after the number: the law's name may follow them.
        if(std::regex_search(after, foreign))
            continue;
        std::string const list = m[1].str();
        std::string article_of_list;
        bool previous_had_paragraph = false;
        for(auto jt = std::sregex_iterator(list.begin(), list.end(), item); jt != std::sregex_iterator(); ++jt)
        {
            std::string ref;
            if((*jt)[2].matched)
            {
                article_of_list = (*jt)[1].str();
                ref = article_of_list + "." + (*jt)[2].str();
                previous_had_paragraph = true;
            }
            else if(previous_had_paragraph)
                ref = article_of_list + "." + (*jt)[1].str(); // "34.3 y 4": paragraph 4 of article 34
            else
                ref = (*jt)[1].str();
            auto const article = ref.substr(0, ref.find('.'));
            if(article == own_article)
                continue;
            if(std::find(out.begin(), out.end(), ref) == out.end())
                out.push_back(ref);
        }
    }
    return out;
}

std::string slug(std::string_view text)
{
    std::string out;
    for(auto const& w : retrieval::words(text))
    {
        if(!out.empty())
            out += '-';
        out += w;
    }
    return out;
}

std::vector<retrieval::chunk> chunk_article(article_text const& article, std::string_view law, std::int32_t& ordinal)
{
    // Paragraphs: a line "N. …" opens paragraph N; text before the first is the article's head.
    static std::regex const numbered(R"(^(\d+)\.\s)");
    std::vector<std::pair<std::string, std::string>> paragraphs; // number, text
    for(auto line : lines_of(article.body))
    {
        std::match_results<std::string_view::const_iterator> m;
        if(std::regex_search(line.begin(), line.end(), m, numbered))
            paragraphs.emplace_back(m[1].str(), std::string());
        else if(paragraphs.empty())
            paragraphs.emplace_back(std::string(), std::string());
        auto& text = paragraphs.back().second;
        if(line.empty())
            continue;
        if(!text.empty())
            text += '\n';
        text += line;
    }
    std::vector<retrieval::chunk> out;
    std::set<std::string> used;
    auto const base = slug(law) + "/" + slug(article.number) + "/";
    std::string chapter = article.chapter;
    for(auto const& [number, text] : paragraphs)
    {
        if(text.empty())
            continue;
        auto const passages = retrieval::split_passages(text, {.max_chars = 1400, .min_chars = 200});
        for(std::size_t i = 0; i < passages.size(); ++i)
        {
            retrieval::chunk c;
            c.key = base + (number.empty() ? "0" : number);
            if(i > 0)
                c.key += "#" + std::to_string(i + 1);
            // A numbered list inside a paragraph repeats numbers: keys stay unique.
            for(int n = 2; used.contains(c.key); ++n)
                c.key = base + (number.empty() ? "0" : number) + "~" + std::to_string(n);
            used.insert(c.key);
            c.law = law;
            c.article_number = article.number;
            c.paragraph = number;
            c.title = article.heading;
            c.chapter = chapter;
            c.section = article.section;
            c.text = std::string(passages[i]);
            c.refs = find_references(c.text, article.number);
            c.ordinal = ++ordinal;
            out.push_back(std::move(c));
        }
    }
    return out;
}

std::optional<std::string> resolve_law(std::string_view name, std::vector<std::string> const& known)
{
    auto const wanted = slug(name);
    if(wanted.empty())
        return std::nullopt;
    // Names people and models use for the Estatuto.
    static constexpr std::pair<std::string_view, std::string_view> aliases[] = {{"et", "Estatuto de los Trabajadores"},
        {"e-t", "Estatuto de los Trabajadores"}, {"estatuto", "Estatuto de los Trabajadores"},
        {"tret", "Estatuto de los Trabajadores"}, {"trlet", "Estatuto de los Trabajadores"},
        {"rdl-2-2015", "Estatuto de los Trabajadores"},
        {"real-decreto-legislativo-2-2015", "Estatuto de los Trabajadores"},
        {"texto-refundido-de-la-ley-del-estatuto-de-los-trabajadores", "Estatuto de los Trabajadores"},
        {"ley-del-estatuto-de-los-trabajadores", "Estatuto de los Trabajadores"}};
    for(auto const& law : known)
        if(slug(law) == wanted)
            return law;
    for(auto [alias, law] : aliases)
        if(alias == wanted && std::find(known.begin(), known.end(), law) != known.end())
            return std::string(law);
    // A name that contains a known law's name, or is contained in it ("Estatuto de los Trabajadores (ET)").
    for(auto const& law : known)
    {
        auto const s = slug(law);
        if(wanted.size() >= 6 && (s.find(wanted) != std::string::npos || wanted.find(s) != std::string::npos))
            return law;
    }
    return std::nullopt;
}

} // namespace normativa
