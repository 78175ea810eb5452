// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// How the detail page names and shows a column of the portfolio database. The
// columns are ASCII snake_case ("fecha_ultimo_estado", "importe_2025"); the
// page writes them as Spanish ("Fecha último estado") and formats values by
// what the column name says they are: euros, percentages, dates.

const WORDS = {
  accion: 'acción', actualizacion: 'actualización', alineacion: 'alineación', ambito: 'ámbito', anio: 'año',
  anios: 'años', aprobacion: 'aprobación', area: 'área', asignacion: 'asignación', clasificacion: 'clasificación',
  codigo: 'código', creacion: 'creación', descripcion: 'descripción', desviacion: 'desviación', dias: 'días',
  economica: 'económica', ejecucion: 'ejecución', estimacion: 'estimación', estrategica: 'estratégica',
  evaluacion: 'evaluación', facturacion: 'facturación', formacion: 'formación', geografico: 'geográfico',
  informacion: 'información', inversion: 'inversión', justificacion: 'justificación', limite: 'límite',
  modificacion: 'modificación', num: 'n.º', numero: 'número', pagina: 'página', paginas: 'páginas',
  parametro: 'parámetro', parametros: 'parámetros', proxima: 'próxima', proximo: 'próximo', proximos: 'próximos',
  seccion: 'sección', semaforo: 'semáforo', tamano: 'tamaño', tecnica: 'técnica', titulo: 'título', ultima: 'última',
  ultimo: 'último', util: 'útil', version: 'versión',
  // Acronyms.
  aatt: 'AATT', bi: 'BI', capex: 'CAPEX', cini: 'CINI', id: 'ID', jira: 'Jira', ltp: 'LTP', opex: 'OPEX', ti: 'TI',
  tir: 'TIR', van: 'VAN', wbe: 'WBE', wbes: 'WBEs',
};

/** "fecha_ultimo_estado" → "Fecha último estado". */
export function fieldLabel(name) {
  const words = name.split('_').filter(Boolean).map((w) => WORDS[w] ?? w);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const MONEY = /^(importe|budget|coste|ahorro|inversion|beneficio|van|desviacion_importe)(_|$)/;
const FLAG = /^(es|en|tiene|requiere|afecta)_/; // 0 or 1
const PERCENT = /^(porcentaje|tir)(_|$)/; // TIR: the internal rate of return, in percent
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]|$)/;

/**
 * A value as the page shows it: "18.129,47 €", "60,4 %", "2 jun 2021", "Sí", "—".
 * @param currency the row's `moneda` when it has one (ISO 4217), else euros
 */
export function formatField(name, value, currency = 'EUR') {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'number') {
    if (FLAG.test(name) && (value === 0 || value === 1)) return value ? 'Sí' : 'No';
    if (MONEY.test(name))
      return value.toLocaleString('es-ES', { style: 'currency', currency: /^[A-Z]{3}$/.test(currency) ? currency : 'EUR' });
    if (PERCENT.test(name)) return `${value.toLocaleString('es-ES', { maximumFractionDigits: 1 })} %`;
    return value.toLocaleString('es-ES', { maximumFractionDigits: 2 });
  }
  if (typeof value === 'object') return JSON.stringify(value);
  const date = name.startsWith('fecha') && ISO_DATE.exec(value);
  if (date) {
    const [, y, m, d] = date.map(Number);
    const day = new Date(Date.UTC(y, m - 1, d));
    if (day.getUTCMonth() === m - 1)
      return day.toLocaleDateString('es-ES', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  }
  return String(value);
}
