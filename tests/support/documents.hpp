// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Documents made for tests and benchmarks, without a library to write them.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace agentio_test {

// A PDF of these objects (numbered from 1, the first the catalog), with its cross-reference table.
inline std::string pdf_of(std::vector<std::string> const& objects)
{
    std::string pdf = "%PDF-1.4\n";
    std::vector<std::size_t> offsets;
    for(std::size_t i = 0; i < objects.size(); ++i)
    {
        offsets.push_back(pdf.size());
        pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    std::size_t const xref = pdf.size();
    pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
    for(auto o : offsets)
    {
        char line[32];
        std::snprintf(line, sizeof line, "%010zu 00000 n \n", o);
        pdf += line;
    }
    pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
        std::to_string(xref) + "\n%%EOF\n";
    return pdf;
}

// A PDF of one page per text, Helvetica, written by hand with its cross-reference table.
inline std::string make_pdf(std::vector<std::string> const& pages)
{
    std::vector<std::string> objects;
    std::string kids;
    std::size_t const first_page = 4;
    for(std::size_t i = 0; i < pages.size(); ++i)
        kids += std::to_string(first_page + 2 * i) + " 0 R ";
    objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
    objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) + " >>");
    objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    for(std::size_t i = 0; i < pages.size(); ++i)
    {
        std::string const stream = "BT /F1 12 Tf 72 720 Td (" + pages[i] + ") Tj ET";
        objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
                          ">> /Contents " +
            std::to_string(first_page + 2 * i + 1) + " 0 R >>");
        objects.push_back("<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "\nendstream");
    }
    return pdf_of(objects);
}

} // namespace agentio_test
