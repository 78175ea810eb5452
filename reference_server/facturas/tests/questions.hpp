// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Spanish questions about the Chinook invoices and the SQL a model would
// write for each: what the fake LLM answers in the tests and the benchmark.
#pragma once

#include <iterator>

namespace facturas::samples {

// A Spanish question and the SQL the "model" writes for it.
struct question_case
{
    char const* question;
    char const* sql;
};

inline question_case const questions[] = {
    {"¿Cuál es el total facturado por país?",
        "SELECT BillingCountry AS pais, ROUND(SUM(Total), 2) AS total FROM Invoice GROUP BY BillingCountry "
        "ORDER BY total DESC, pais"},
    {"¿Cuánto se facturó cada año?",
        "SELECT strftime('%Y', InvoiceDate) AS anio, ROUND(SUM(Total), 2) AS total FROM Invoice GROUP BY anio "
        "ORDER BY anio"},
    {"¿Quiénes son los 5 clientes que más han gastado?",
        "```sql\nSELECT c.FirstName || ' ' || c.LastName AS cliente, ROUND(SUM(i.Total), 2) AS total\nFROM Customer c "
        "JOIN Invoice i ON i.CustomerId = c.CustomerId\nGROUP BY c.CustomerId ORDER BY total DESC, cliente LIMIT 5;\n```"},
    {"¿Cuántas líneas de factura hay por género musical?",
        "SELECT g.Name AS genero, COUNT(*) AS lineas FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId "
        "JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.GenreId ORDER BY lineas DESC, genero"},
    {"¿Cuánto ha vendido cada empleado de soporte?",
        "SELECT e.FirstName || ' ' || e.LastName AS empleado, ROUND(SUM(i.Total), 2) AS ventas FROM Employee e "
        "JOIN Customer c ON c.SupportRepId = e.EmployeeId JOIN Invoice i ON i.CustomerId = c.CustomerId "
        "GROUP BY e.EmployeeId ORDER BY ventas DESC"},
    {"¿Cuántas facturas hay en total?", "SELECT COUNT(*) AS facturas FROM Invoice"},
    {"¿Cuál es el importe medio de una factura?", "SELECT ROUND(AVG(Total), 2) AS importe_medio FROM Invoice"},
    {"¿Cuál fue la factura más alta y de quién es?",
        "SELECT i.InvoiceId, c.FirstName || ' ' || c.LastName AS cliente, i.Total FROM Invoice i "
        "JOIN Customer c ON c.CustomerId = i.CustomerId ORDER BY i.Total DESC, i.InvoiceId LIMIT 1"},
    {"¿Cuánto se facturó en 2022 cada mes?",
        "SELECT strftime('%m', InvoiceDate) AS mes, ROUND(SUM(Total), 2) AS total FROM Invoice "
        "WHERE strftime('%Y', InvoiceDate) = '2022' GROUP BY mes ORDER BY mes"},
    {"¿Qué 10 canciones se han vendido más?",
        "SELECT t.Name AS cancion, SUM(il.Quantity) AS unidades FROM InvoiceLine il JOIN Track t "
        "ON t.TrackId = il.TrackId GROUP BY t.TrackId ORDER BY unidades DESC, cancion LIMIT 10"},
    {"¿Qué artistas generan más ingresos?",
        "SELECT ar.Name AS artista, ROUND(SUM(il.UnitPrice * il.Quantity), 2) AS ingresos FROM InvoiceLine il "
        "JOIN Track t ON t.TrackId = il.TrackId JOIN Album al ON al.AlbumId = t.AlbumId JOIN Artist ar "
        "ON ar.ArtistId = al.ArtistId GROUP BY ar.ArtistId ORDER BY ingresos DESC, artista LIMIT 10"},
    {"¿Cuántos clientes hay en cada país?",
        "SELECT Country AS pais, COUNT(*) AS clientes FROM Customer GROUP BY Country ORDER BY clientes DESC, pais"},
    {"¿Qué ciudades de Brasil tienen facturas y cuánto suman?",
        "SELECT BillingCity AS ciudad, ROUND(SUM(Total), 2) AS total FROM Invoice WHERE BillingCountry = 'Brazil' "
        "GROUP BY BillingCity ORDER BY total DESC, ciudad"},
    {"¿Cuántas facturas tiene cada cliente de Alemania?",
        "SELECT c.FirstName || ' ' || c.LastName AS cliente, COUNT(i.InvoiceId) AS facturas FROM Customer c "
        "JOIN Invoice i ON i.CustomerId = c.CustomerId WHERE c.Country = 'Germany' GROUP BY c.CustomerId "
        "ORDER BY cliente"},
    {"¿Qué formatos de fichero se venden más?",
        "SELECT m.Name AS formato, COUNT(*) AS lineas FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId "
        "JOIN MediaType m ON m.MediaTypeId = t.MediaTypeId GROUP BY m.MediaTypeId ORDER BY lineas DESC"},
    {"¿Cuál fue el total de cada trimestre de 2023?",
        "WITH f AS (SELECT (CAST(strftime('%m', InvoiceDate) AS INTEGER) + 2) / 3 AS trimestre, Total FROM Invoice "
        "WHERE strftime('%Y', InvoiceDate) = '2023') SELECT trimestre, ROUND(SUM(Total), 2) AS total FROM f "
        "GROUP BY trimestre ORDER BY trimestre"},
    {"¿Qué clientes sin empresa han gastado más?",
        "SELECT c.FirstName || ' ' || c.LastName AS cliente, ROUND(SUM(i.Total), 2) AS total FROM Customer c "
        "JOIN Invoice i ON i.CustomerId = c.CustomerId WHERE c.Company IS NULL GROUP BY c.CustomerId "
        "ORDER BY total DESC, cliente LIMIT 10"},
    {"¿Cuál es el precio medio de las canciones de cada género?",
        "SELECT g.Name AS genero, ROUND(AVG(t.UnitPrice), 2) AS precio_medio FROM Track t JOIN Genre g "
        "ON g.GenreId = t.GenreId GROUP BY g.GenreId ORDER BY precio_medio DESC, genero"},
    {"¿Cuántas facturas superan los 15 dólares?", "SELECT COUNT(*) AS facturas FROM Invoice WHERE Total > 15"},
    {"¿Cuántos empleados tiene a su cargo cada jefe?",
        "SELECT j.FirstName || ' ' || j.LastName AS jefe, COUNT(e.EmployeeId) AS empleados FROM Employee e "
        "JOIN Employee j ON j.EmployeeId = e.ReportsTo GROUP BY j.EmployeeId ORDER BY empleados DESC, jefe"},
    {"¿Qué clientes de Francia compraron en 2024 y cuánto?",
        "SELECT c.FirstName || ' ' || c.LastName AS cliente, ROUND(SUM(i.Total), 2) AS total FROM Customer c "
        "JOIN Invoice i ON i.CustomerId = c.CustomerId WHERE c.Country = 'France' AND "
        "strftime('%Y', i.InvoiceDate) = '2024' GROUP BY c.CustomerId ORDER BY total DESC, cliente"},
};

inline constexpr std::size_t question_count = std::size(questions);

} // namespace facturas::samples
