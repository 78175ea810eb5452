# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# Checks that every region between "// tag::NAME[]" and "// end::NAME[]" in
# SOURCE appears verbatim (indentation removed) in the Markdown page DOC, so a
# page's code is code a test compiles.
#   cmake -DSOURCE=... -DDOC=... -P check_snippets.cmake

file(READ "${SOURCE}" source)
file(READ "${DOC}" doc)
string(REGEX MATCHALL "// tag::[a-z_]+\\[\\]" tags "${source}")
if(NOT tags)
    message(FATAL_ERROR "no tagged regions in ${SOURCE}")
endif()

foreach(tag IN LISTS tags)
    string(REGEX REPLACE "// tag::([a-z_]+)\\[\\]" "\\1" name "${tag}")
    string(FIND "${source}" "// tag::${name}[]\n" begin)
    string(FIND "${source}" "// end::${name}[]" end)
    string(LENGTH "// tag::${name}[]\n" marker)
    math(EXPR begin "${begin} + ${marker}")
    math(EXPR length "${end} - ${begin}")
    string(SUBSTRING "${source}" ${begin} ${length} region)
    # Drop the common indentation: a region inside a function is shown flush left.
    string(REGEX MATCH "^ +" indent "${region}")
    string(LENGTH "${indent}" indent_length)
    if(indent_length GREATER 0)
        string(REGEX REPLACE "(^|\n)${indent}" "\\1" region "${region}")
        string(REGEX REPLACE "\n *$" "\n" region "${region}")
    endif()
    string(FIND "${doc}" "${region}" found)
    if(found EQUAL -1)
        message(FATAL_ERROR "${DOC} does not show region '${name}' of ${SOURCE} as it is:\n${region}")
    endif()
    message(STATUS "region '${name}' is in the page")
endforeach()
