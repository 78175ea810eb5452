// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// One tool step (a tool_call event of the chat stream): tool, parameters, duration, result summary.
export function ToolStep({ step }) {
  const ms = step.duration_ms;
  const duration = typeof ms !== 'number' ? null
    : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toLocaleString('es-ES', { maximumFractionDigits: 1 })} s`;
  return (
    <li className="tool-step">
      <div className="tool-step-head">
        <span className="tool-name">{step.tool}</span>
        {duration && <span className="tool-duration">{duration}</span>}
      </div>
      {step.input_summary && <div className="tool-params">{step.input_summary}</div>}
      {step.result_summary && (
        <div className="tool-result">
          <span aria-hidden="true">→ </span>
          <span className="visually-hidden">Resultado: </span>
          {step.result_summary}
        </div>
      )}
    </li>
  );
}

// A call the model is still writing: its tool and its arguments as they arrive (JSON text, whole or not).
export function FormingStep({ call }) {
  return (
    <li className="tool-step forming" aria-busy="true">
      <div className="tool-step-head">
        <span className="tool-name">{call.tool}</span>
        <span className="tool-duration">preparando…</span>
      </div>
      {call.args && <div className="tool-params tool-args">{call.args}</div>}
    </li>
  );
}

export function ToolStepList({ steps, forming = [] }) {
  return (
    <ol className="tool-steps">
      {steps.map((s, i) => (
        <ToolStep key={i} step={s} />
      ))}
      {forming.map((f) => (
        <FormingStep key={`forming-${f.tool_call_id}`} call={f} />
      ))}
    </ol>
  );
}
