//
// agentio/retrieval/src.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the retrieval component. Include it in exactly one
// source file of a program built with AGENTIO_SEPARATE_COMPILATION (see
// <agentio/config.hpp>).
//

#ifndef AGENTIO_RETRIEVAL_SRC_HPP
#define AGENTIO_RETRIEVAL_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/retrieval.hpp>
#include <agentio/retrieval/open_index_writer.hpp>
#include <agentio/retrieval/postgres_index.hpp>

#include <agentio/retrieval/impl/analysis.ipp>
#include <agentio/retrieval/impl/analysis_profile.ipp>
#include <agentio/retrieval/impl/documents.ipp>
#include <agentio/retrieval/impl/index.ipp>
#include <agentio/retrieval/impl/index_writer.ipp>
#include <agentio/retrieval/impl/lsa.ipp>
#include <agentio/retrieval/impl/open_index_writer.ipp>
#include <agentio/retrieval/impl/open_searcher.ipp>
#include <agentio/retrieval/impl/postgres_index.ipp>
#include <agentio/retrieval/impl/searcher.ipp>
#include <agentio/retrieval/impl/sqlite_index.ipp>
#include <agentio/retrieval/impl/vector_store.ipp>

#endif
