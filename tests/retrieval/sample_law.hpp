// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the index suites share, whichever database they test: an analyzer with
// a few Spanish stop words, a small law of five chunks with references, and a
// deterministic embedder (one dimension per word of a small vocabulary: the
// fusion is under test, not a model).
#ifndef AGENTIO_TESTS_RETRIEVAL_SAMPLE_LAW_HPP
#define AGENTIO_TESTS_RETRIEVAL_SAMPLE_LAW_HPP

#include <agentio/retrieval.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace agentio_test {

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;
namespace llm = agentio::llm;

inline retrieval::analyzer spanish_like()
{
    return retrieval::analyzer({.stop_words = {"el", "la", "los", "las", "de", "del", "y", "en", "a", "por", "que",
                                    "un", "una", "me", "mi", "se", "al", "con", "para", "su"}});
}

inline retrieval::chunk make_chunk(std::string key, std::string article, std::string paragraph, std::string title,
    std::string text, std::vector<std::string> refs = {}, std::int32_t ordinal = 0)
{
    retrieval::chunk c;
    c.key = std::move(key);
    c.article_number = std::move(article);
    c.paragraph = std::move(paragraph);
    c.title = std::move(title);
    c.text = std::move(text);
    c.refs = std::move(refs);
    c.ordinal = ordinal;
    return c;
}

inline std::vector<retrieval::chunk> small_law()
{
    return {
        make_chunk("ley/38/1", "38", "1", "Artículo 38. Vacaciones anuales.",
            "El periodo de vacaciones anuales retribuidas, no sustituible por compensación económica, será el "
            "pactado en convenio colectivo o contrato individual. En ningún caso la duración será inferior a "
            "treinta días naturales.",
            {}, 1),
        make_chunk("ley/38/2", "38", "2", "Artículo 38. Vacaciones anuales.",
            "El periodo de su disfrute se fijará de común acuerdo entre el empresario y el trabajador.", {"48"}, 2),
        make_chunk("ley/48/1", "48", "1", "Artículo 48. Suspensión con reserva de puesto de trabajo.",
            "Al cesar las causas legales de suspensión, la persona trabajadora tendrá derecho a la reincorporación.",
            {}, 3),
        make_chunk("ley/48/4", "48", "4", "Artículo 48. Suspensión con reserva de puesto de trabajo.",
            "El nacimiento suspenderá el contrato de trabajo durante dieciséis semanas.", {"38.1", "56"}, 4),
        make_chunk("ley/56/1", "56", "1", "Artículo 56. Despido improcedente.",
            "Cuando el despido sea declarado improcedente, la indemnización será de treinta y tres días de salario "
            "por año de servicio.",
            {"48.4", "38"}, 5),
    };
}

// A deterministic embedder: one dimension per word of a small vocabulary.
class word_embedder final : public llm::embedder
{
public:
    std::vector<std::string> vocabulary{"vacaciones", "nacimiento", "despido", "indemnizacion", "descanso"};
    std::string model_id() const override { return "words@5"; }
    asio::awaitable<boost::system::result<llm::embeddings, llm::error>>
    embed(std::span<std::string const> texts) override
    {
        if(fail)
            co_return llm::error{llm::error::kind::connection, 0, {}, "embeddings unreachable"};
        llm::embeddings out;
        out.dimensions = vocabulary.size();
        for(auto const& t : texts)
        {
            auto const ws = retrieval::words(t);
            for(auto const& v : vocabulary)
                out.values.push_back(static_cast<float>(std::count(ws.begin(), ws.end(), v)));
        }
        co_return out;
    }
    bool fail = false;
};

} // namespace agentio_test

#endif
