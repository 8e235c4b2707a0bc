import type { Question } from '../../common/review.ts';

/**
 * The review-form editor's rows as posted (`q.<row>.id|label|type|required|options|order|remove`) and back.
 * Rows come in the order of their "Position"; an empty new row adds nothing; a removed one is left out.
 * A new question's id is made from its words (ids only tie answers to questions; they are never shown).
 */
export function questionsFromForm(form: { values(): Record<string, string> }) {
  const values = form.values();
  const text = (key: string) => values[key] ?? '';
  const rows = [...new Set(Object.keys(values).flatMap((k) => /^q\.(\d{1,3})\./.exec(k)?.[1] ?? []))].map(
    Number,
  );
  const errors: Record<string, string> = {};
  const taken = new Set(rows.map((r) => text(`q.${r}.id`)).filter(Boolean));
  const kept: { row: number; order: number; question: Question }[] = [];
  for (const row of rows) {
    const f = (name: string) => text(`q.${row}.${name}`);
    const label = f('label').trim();
    if (f('remove') === 'on' || (!label && !f('id'))) continue;
    const order = f('order').trim();
    if (!/^\d{1,3}$/.test(order))
      errors[`q.${row}.order`] = 'Give the position as a whole number, such as 2.';
    let id = f('id');
    if (!id) {
      const base =
        label
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 32) || 'question';
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
    }
    const type = f('type') as Question['type'];
    kept.push({
      row,
      order: Number(order) || 0,
      question: {
        id,
        type,
        label,
        required: f('required') === 'on',
        ...(type === 'choice'
          ? {
              options: f('options')
                .split(/\r?\n/)
                .map((o) => o.trim())
                .filter(Boolean),
            }
          : {}),
      },
    });
  }
  kept.sort((a, b) => a.order - b.order || a.row - b.row);
  return { questions: kept, errors };
}

export function questionsToForm(questions: readonly Question[]): Record<string, string> {
  const out: Record<string, string> = {};
  questions.forEach((q, i) => {
    out[`q.${i}.id`] = q.id;
    out[`q.${i}.label`] = q.label;
    out[`q.${i}.type`] = q.type;
    out[`q.${i}.required`] = q.required ? 'on' : '';
    out[`q.${i}.options`] = (q.options ?? []).join('\n');
    out[`q.${i}.order`] = String(i + 1);
  });
  return out;
}
