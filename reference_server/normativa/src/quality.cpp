// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "quality.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace normativa {

namespace asio = boost::asio;
namespace json = boost::json;
namespace retrieval = agentio::retrieval;

boost::system::result<std::vector<quality_question>, std::string> load_questions(std::filesystem::path const& path)
{
    std::ifstream in(path, std::ios::binary);
    if(!in)
        return std::string("no se puede leer '").append(path.string()).append("'");
    std::stringstream text;
    text << in.rdbuf();
    boost::system::error_code ec;
    auto v = json::parse(text.str(), ec);
    auto const* list = !ec && v.is_object() ? v.get_object().if_contains("questions") : nullptr;
    if(!list || !list->is_array())
        return std::string("'").append(path.string()).append("' no es un objeto JSON con una lista questions");
    std::vector<quality_question> out;
    for(auto const& q : list->get_array())
    {
        auto const* o = q.if_object();
        if(!o || !o->contains("question") || !o->contains("keywords") || !o->contains("articles"))
            return std::string("'")
                .append(path.string())
                .append("': cada pregunta necesita question, keywords y articles");
        quality_question item{std::string(o->at("question").as_string()), std::string(o->at("keywords").as_string()),
            {}};
        for(auto const& a : o->at("articles").as_array())
            item.articles.emplace_back(a.as_string());
        out.push_back(std::move(item));
    }
    return out;
}

namespace {

struct method
{
    char const* name;
    retrieval::search_mode mode;
};
constexpr method methods[] = {{"sparse", retrieval::search_mode::sparse}, {"dense", retrieval::search_mode::dense},
    {"hybrid", retrieval::search_mode::hybrid}};
constexpr std::string_view forms[] = {"question", "keywords"};

} // namespace

asio::awaitable<retrieval::result<std::vector<quality_row>>> measure_quality(retrieval::searcher& search,
    std::vector<quality_question> const& questions)
{
    std::unordered_map<std::int64_t, std::string> article_of; // filled as chunks are seen
    std::vector<quality_row> rows;
    for(auto const& m : methods)
        for(std::string_view form : forms)
        {
            quality_row row{m.name, std::string(form), 0, 0, questions.size()};
            for(auto const& q : questions)
            {
                retrieval::search_request request{.text = form == "question" ? q.question : q.keywords,
                    .top_k = 30,
                    .mode = m.mode};
                auto ranked = co_await search.rank(request);
                if(!ranked)
                    co_return ranked.error();
                std::vector<std::int64_t> unknown;
                for(auto const& h : ranked->hits)
                    if(!article_of.contains(h.id))
                        unknown.push_back(h.id);
                if(!unknown.empty())
                {
                    auto chunks = co_await search.source().chunks(std::move(unknown));
                    if(!chunks)
                        co_return chunks.error();
                    for(auto const& c : *chunks)
                        article_of.emplace(c.id, c.article_number);
                }
                for(std::size_t r = 0; r < ranked->hits.size(); ++r)
                {
                    auto const& a = article_of[ranked->hits[r].id];
                    if(std::find(q.articles.begin(), q.articles.end(), a) == q.articles.end())
                        continue;
                    if(r < 5)
                        row.recall_at_5 += 1;
                    row.mrr += 1.0 / static_cast<double>(r + 1);
                    break;
                }
            }
            if(!questions.empty())
            {
                row.recall_at_5 /= static_cast<double>(questions.size());
                row.mrr /= static_cast<double>(questions.size());
            }
            rows.push_back(row);
        }
    co_return rows;
}

std::string quality_table(std::vector<quality_row> const& rows)
{
    std::string out = "method  form      recall@5  MRR    (n)\n";
    for(auto const& r : rows)
    {
        char line[128];
        std::snprintf(line, sizeof line, "%-7s %-9s %8.3f  %5.3f  (%zu)\n", r.method.c_str(), r.form.c_str(),
            r.recall_at_5, r.mrr, r.questions);
        out += line;
    }
    return out;
}

json::array quality_json(std::vector<quality_row> const& rows)
{
    json::array out;
    for(auto const& r : rows)
        out.push_back(json::object{{"method", r.method}, {"form", r.form}, {"recall_at_5", r.recall_at_5},
            {"mrr", r.mrr}, {"questions", r.questions}});
    return out;
}

} // namespace normativa
