/**
 * The state of a form of typed fields (a run's inputs, an approval's payload) and its sending:
 * the values start at each field's default; `submit` checks them, sends what they build, keeps
 * the buttons disabled while it is sent, and shows a refusal: messages by field, and an alert.
 */
import { useState } from 'preact/hooks';
import { buildInputs, initialValue, type FieldValue, type InputSpec } from './inputs.js';

type Specs = Record<string, InputSpec>;

/** How a form shows a refusal: a message per field it names, and the alert. */
export type Refusal = { fields: Record<string, string>; message: string };

export function useTypedForm(specs: Specs) {
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(Object.entries(specs).map(([n, s]) => [n, initialValue(s)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /**
   * Checks the values against `check` (the form's own specs unless told) and sends what they
   * build; a field that does not parse shows its message and nothing is sent.
   */
  const submit = (
    send: (built: Record<string, unknown>) => Promise<unknown>,
    refusal: (err: unknown) => Refusal,
    check: Specs = specs,
  ): void => {
    const built = buildInputs(check, values);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setBusy(true);
    send(built.inputs).then(
      () => setBusy(false),
      (err: unknown) => {
        setBusy(false);
        const { fields, message } = refusal(err);
        setErrors(fields);
        setFailure(message);
      },
    );
  };

  const set = (name: string, value: FieldValue) => setValues((v) => ({ ...v, [name]: value }));
  return { values, errors, failure, busy, set, submit };
}
