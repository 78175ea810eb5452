// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// An initiative's data from GET /api/v1/portfolio/{id}: one section per table
// that has data, fields as a definition list, multi-row tables as tables.
import { useEffect, useState } from 'react';
import { Link, useDocumentTitle, useRouteHeading } from '../router.jsx';
import ScrollRegion from '../ScrollRegion.jsx';
import { fieldLabel as label, formatField } from './fields.js';

const hidden = new Set(['id', 'portfolio_id']);

function Fields({ row }) {
  const entries = Object.entries(row).filter(([k, v]) => !hidden.has(k) && v !== null && v !== '');
  return (
    <dl className="fields">
      {entries.map(([k, v]) => (
        <div key={k} className="field">
          <dt>{label(k)}</dt>
          <dd>{formatField(k, v, row.moneda)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Rows({ name, rows }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(
    (c) => !hidden.has(c) && rows.some((r) => r[c] !== null && r[c] !== ''),
  );
  return (
    <ScrollRegion label={name}>
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{label(c)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{formatField(c, r[c], r.moneda)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export default function DetailPage({ portfolioId }) {
  const [state, setState] = useState({ loading: true });
  useEffect(() => {
    const controller = new AbortController();
    setState({ loading: true });
    fetch(`/api/v1/portfolio/${encodeURIComponent(portfolioId)}`, { signal: controller.signal })
      .then(async (r) => {
        const body = await r.json().catch(() => ({}));
        if (!r.ok) throw new Error(r.status === 404 ? `No existe la iniciativa ${portfolioId}` : body.detail || `Error ${r.status}`);
        setState({ data: body });
      })
      .catch((e) => {
        if (e.name !== 'AbortError')
          setState({ error: e instanceof TypeError ? 'No se pudo conectar con el servidor' : e.message });
      });
    return () => controller.abort();
  }, [portfolioId]);

  const tables = Object.entries(state.data?.tablas ?? {}).filter(
    ([, v]) => v !== null && !(Array.isArray(v) && v.length === 0),
  );
  const main = state.data?.tablas?.datos_relevantes;
  const title = (Array.isArray(main) ? main[0] : main)?.nombre ?? '';
  const heading = useRouteHeading();
  useDocumentTitle(title ? `${portfolioId} ${title}` : portfolioId);

  return (
    <main className="page detail">
      <nav className="breadcrumbs" aria-label="Ruta de navegación">
        <Link to="/chat">← Volver a la conversación</Link>
      </nav>
      <h1 ref={heading} tabIndex={-1}>
        <span className="pid">{portfolioId}</span> {title}
      </h1>
      <div role="status" className={state.loading ? 'muted' : 'visually-hidden'}>
        {state.loading ? 'Cargando…' : state.data ? `${tables.length} secciones con datos` : ''}
      </div>
      {state.error && (
        <p className="notice" role="alert">
          {state.error}
        </p>
      )}
      {tables.map(([name, value]) => (
        <section key={name} className="card">
          <h2>{label(name)}</h2>
          {Array.isArray(value) ? (
            value.length === 1 ? <Fields row={value[0]} /> : <Rows name={label(name)} rows={value} />
          ) : (
            <Fields row={value} />
          )}
        </section>
      ))}
    </main>
  );
}
