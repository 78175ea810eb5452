// An initiative's data from GET /api/v1/portfolio/{id}: one section per table
// that has data, fields as a definition list, multi-row tables as tables.
import { useEffect, useState } from 'react';
import { Link } from '../router.jsx';

const label = (name) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

function formatValue(v) {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'number') return v.toLocaleString('es-ES', { maximumFractionDigits: 2 });
  if (typeof v === 'boolean') return v ? 'Sí' : 'No';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const hidden = new Set(['id', 'portfolio_id']);

function Fields({ row }) {
  const entries = Object.entries(row).filter(([k, v]) => !hidden.has(k) && v !== null && v !== '');
  return (
    <dl className="fields">
      {entries.map(([k, v]) => (
        <div key={k} className="field">
          <dt>{label(k)}</dt>
          <dd>{formatValue(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Rows({ rows }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(
    (c) => !hidden.has(c) && rows.some((r) => r[c] !== null && r[c] !== ''),
  );
  return (
    <div className="table-scroll">
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
                <td key={c}>{formatValue(r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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

  return (
    <main className="page detail">
      <nav className="breadcrumbs" aria-label="Migas">
        <Link to="/chat">← Volver a la conversación</Link>
      </nav>
      <h1>
        <span className="pid">{portfolioId}</span> {title}
      </h1>
      {state.loading && <p className="muted">Cargando…</p>}
      {state.error && (
        <p className="notice" role="alert">
          {state.error}
        </p>
      )}
      {tables.map(([name, value]) => (
        <section key={name} className="card">
          <h2>{label(name)}</h2>
          {Array.isArray(value) ? (
            value.length === 1 ? <Fields row={value[0]} /> : <Rows rows={value} />
          ) : (
            <Fields row={value} />
          )}
        </section>
      ))}
    </main>
  );
}
