//
// agentio/retrieval/impl/index.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_INDEX_IPP
#define AGENTIO_RETRIEVAL_IMPL_INDEX_IPP

#include <agentio/retrieval/index.hpp>

#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

namespace agentio::retrieval {

namespace detail {

class retrieval_category final : public system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.retrieval"; }

    std::string message(int ev) const override
    {
        switch(static_cast<errc>(ev))
        {
        case errc::storage_failed: return "the index's database failed";
        case errc::corrupt_data: return "stored data is not what this library writes";
        case errc::schema_too_new: return "the index's schema is newer than this program";
        case errc::model_mismatch: return "the vectors or model belong to another embedder";
        case errc::no_analysis: return "the index does not say how its text was analysed";
        case errc::unknown_stemmer: return "the index's text was stemmed by a stemmer this program lacks";
        case errc::embedding_failed: return "the embedder failed";
        }
        return "unknown retrieval error";
    }
};

} // namespace detail

AGENTIO_DECL system::error_category const& error_category() noexcept
{
    static detail::retrieval_category const category;
    return category;
}

AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc)
{
    boost::throw_exception(system::system_error(e.code, e.message), loc);
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> related_chunks(index& idx, chunk const& from,
    std::size_t limit)
{
    std::vector<chunk> out;
    for(auto const& ref : from.refs)
    {
        if(out.size() >= limit)
            break;
        auto const dot = ref.find('.');
        std::string article = ref.substr(0, dot);
        std::string paragraph = dot == std::string::npos ? std::string() : ref.substr(dot + 1);
        auto found = co_await idx.article(from.law, article, paragraph);
        if(!found)
            co_return found.error();
        if(found->empty() && !paragraph.empty())
        {
            // A paragraph the index does not split out: the article it is in.
            std::string all_paragraphs;
            auto whole = co_await idx.article(from.law, article, std::move(all_paragraphs));
            if(!whole)
                co_return whole.error();
            found = std::move(*whole);
        }
        if(found->empty())
            continue;
        auto& first = found->front();
        bool const seen = std::any_of(out.begin(), out.end(), [&](chunk const& c) { return c.id == first.id; });
        if(!seen && first.id != from.id)
            out.push_back(std::move(first));
    }
    co_return out;
}

} // namespace agentio::retrieval

#endif
