// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A tool call that waits for the user's approval (approval_required): what the
// assistant wants to run and with which arguments, "Aprobar" or "Rechazar"
// (with an optional reason). The first prompt takes the focus when it appears,
// so a keyboard or a screen reader lands on the question being asked.
import { useEffect, useId, useRef, useState } from 'react';
import { describeInput } from './run.js';

export function ApprovalPrompt({ approval, onDecide, autoFocus = false }) {
  const id = useId();
  const group = useRef(null);
  const reasonBox = useRef(null);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState(null);
  const args = describeInput(approval.input);

  useEffect(() => {
    if (autoFocus) group.current?.focus();
  }, [autoFocus]);
  useEffect(() => {
    if (rejecting) reasonBox.current?.focus();
  }, [rejecting]);

  const decide = async (approved) => {
    setSending(true);
    setProblem(null);
    const error = await onDecide(approval.tool_call_id, approved, approved ? '' : reason);
    // Sent: the prompt goes away with the decision; a failure stays here to try again.
    if (error) {
      setProblem(error);
      setSending(false);
    }
  };
  const backFromReject = () => {
    setRejecting(false);
    setReason('');
    // The button that opened the field is back: the focus returns to it.
    setTimeout(() => group.current?.querySelector('.approval-reject')?.focus());
  };

  return (
    <div className="approval" role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-what`} tabIndex={-1} ref={group}>
      <h3 id={`${id}-title`} className="approval-title">
        {approval.in_doubt ? 'Una llamada se interrumpió' : 'Se necesita su aprobación'}
      </h3>
      {approval.in_doubt ? (
        <p id={`${id}-what`}>
          El asistente estaba usando <code>{approval.tool}</code> {args ? <>con {args}</> : 'sin argumentos'} cuando
          el servidor se detuvo, y puede que la llamada ya se haya hecho. ¿Repetirla?
        </p>
      ) : (
        <p id={`${id}-what`}>
          El asistente quiere usar <code>{approval.tool}</code> {args ? <>con {args}</> : 'sin argumentos'}.
        </p>
      )}
      {rejecting ? (
        <form
          className="approval-reason"
          onSubmit={(e) => {
            e.preventDefault();
            if (!sending) decide(false);
          }}
        >
          <label htmlFor={`${id}-reason`}>Motivo (opcional)</label>
          <input
            id={`${id}-reason`}
            ref={reasonBox}
            type="text"
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              // Escape here goes back to the two choices; it must not stop the whole answer (see ChatPage).
              if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                backFromReject();
              }
            }}
          />
          <div className="approval-actions">
            <button type="submit" className="button danger" disabled={sending}>
              Confirmar rechazo
            </button>
            <button type="button" className="button ghost" onClick={backFromReject} disabled={sending}>
              Volver
            </button>
          </div>
        </form>
      ) : (
        <div className="approval-actions">
          <button type="button" className="button send" onClick={() => decide(true)} disabled={sending}>
            Aprobar
          </button>
          <button type="button" className="button ghost approval-reject" onClick={() => setRejecting(true)} disabled={sending}>
            Rechazar
          </button>
        </div>
      )}
      {problem && (
        <p className="message-error" role="alert">
          No se pudo enviar la decisión. {problem}
        </p>
      )}
    </div>
  );
}

export function ApprovalPrompts({ approvals, onDecide }) {
  return approvals.map((a, i) => <ApprovalPrompt key={a.tool_call_id} approval={a} onDecide={onDecide} autoFocus={i === 0} />);
}
