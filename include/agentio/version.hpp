//
// agentio/version.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The library's version, by the rules of semantic versioning: before 1.0 a
// minor version may break the API (CHANGELOG.md says what broke and how to
// migrate), a patch never does. CMakeLists.txt reads it from here.
//

#ifndef AGENTIO_VERSION_HPP
#define AGENTIO_VERSION_HPP

#define AGENTIO_VERSION_MAJOR 0
#define AGENTIO_VERSION_MINOR 2
#define AGENTIO_VERSION_PATCH 0

/// "MAJOR.MINOR.PATCH"
#define AGENTIO_VERSION_STRING "0.2.0"

/// MAJOR * 100000 + MINOR * 100 + PATCH, to compare in the preprocessor (as BOOST_VERSION).
#define AGENTIO_VERSION (AGENTIO_VERSION_MAJOR * 100000 + AGENTIO_VERSION_MINOR * 100 + AGENTIO_VERSION_PATCH)

#endif
