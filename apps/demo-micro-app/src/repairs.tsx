import type { Repair } from '@portal/contracts';
import { useState, type FormEvent } from 'react';
import { useHost, useTexts } from './host';
import { useCall, type Loaded } from './use-call';

const LIMIT = 10;
type Page<T> = { rows: T[]; total: number };
export const HANDLE = 'repair:handle';

/** 物业报修: the report form, and the requests (the caller's own; all of them for a handler). */
export function Repairs() {
  const host = useHost();
  const t = useTexts();
  const [status, setStatus] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [list, reload] = useCall<Page<Repair>>(
    () =>
      host.request('/api/front/park/repairs', {
        query: { page, limit: LIMIT, ...(status === null ? {} : { status }) },
      }),
    `${page}:${status}`,
  );
  return (
    <div className="park-page">
      <h2 className="park-heading">{t.repairs}</h2>
      <ReportForm onReported={reload} />
      <div className="park-filters" role="group" aria-label={t.status.join(' / ')}>
        {[null, 0, 1, 2].map((s) => (
          <button
            key={String(s)}
            type="button"
            className={s === status ? 'park-chip park-chip-on' : 'park-chip'}
            aria-pressed={s === status}
            onClick={() => {
              setStatus(s);
              setPage(1);
            }}
          >
            {s === null ? t.all : t.status[s]}
          </button>
        ))}
      </div>
      <RepairList list={list} reload={reload} page={page} setPage={setPage} />
    </div>
  );
}

function ReportForm({ onReported }: { onReported: () => void }) {
  const host = useHost();
  const t = useTexts();
  const [title, setTitle] = useState('');
  const [location, setLocation] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [touched, setTouched] = useState(false);
  const short = (v: string) => v.trim().length < 2;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (short(title) || short(location)) return;
    setBusy(true);
    const res = await host.request<string>('/api/front/park/repairs', { body: { title, location, description } });
    setBusy(false);
    if (res.status !== 200) {
      setNote({ ok: false, text: res.message });
      return;
    }
    setTitle('');
    setLocation('');
    setDescription('');
    setTouched(false);
    setNote({ ok: true, text: t.reported });
    onReported();
  };

  return (
    <form className="park-card park-form" onSubmit={submit} noValidate>
      <h3 className="park-subheading">{t.newRepair}</h3>
      <TextField
        name="title"
        label={t.title}
        value={title}
        placeholder={t.titlePlaceholder}
        error={touched && short(title) ? t.required : null}
        onChange={setTitle}
      />
      <TextField
        name="location"
        label={t.location}
        value={location}
        placeholder={t.locationPlaceholder}
        error={touched && short(location) ? t.required : null}
        onChange={setLocation}
      />
      <label className="park-field park-field-wide">
        <span>{t.description}</span>
        <textarea
          name="description"
          value={description}
          maxLength={500}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      <div className="park-actions">
        <button type="submit" className="park-button park-button-primary" disabled={busy}>
          {busy ? t.submitting : t.submit}
        </button>
        {note ? (
          <span role="status" className={note.ok ? 'park-ok' : 'park-error'}>
            {note.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}

/** A labelled one-line field of at most 60 characters, with its message under it. */
export function TextField(props: {
  name: string;
  label: string;
  value: string;
  placeholder: string;
  error?: string | null;
  wide?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label className={props.wide ? 'park-field park-field-wide' : 'park-field'}>
      <span>{props.label}</span>
      <input
        name={props.name}
        value={props.value}
        maxLength={60}
        placeholder={props.placeholder}
        aria-invalid={Boolean(props.error)}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? <em role="alert">{props.error}</em> : null}
    </label>
  );
}

function RepairList({
  list,
  reload,
  page,
  setPage,
}: {
  list: Loaded<Page<Repair>>;
  reload: () => void;
  page: number;
  setPage: (p: number) => void;
}) {
  const host = useHost();
  const t = useTexts();
  if (list.state === 'loading') return <p className="park-muted">{t.loading}</p>;
  if (list.state === 'failed') return <Failed message={list.message} retry={reload} />;
  const { rows, total } = list.data;
  if (total === 0) return <p className="park-muted park-empty">{t.empty}</p>;
  const pages = Math.max(1, Math.ceil(total / LIMIT));
  return (
    <div className="park-card">
      <ul className="park-list">
        {rows.map((r) => (
          <li key={r.id} className="park-row">
            <div className="park-row-main">
              <a
                href={`#/repair/${r.id}`}
                onClick={(e) => {
                  e.preventDefault();
                  host.navigate(`/${host.code}/repair/${r.id}`, { title: t.detailTitle(r.id) });
                }}
              >
                {r.title}
              </a>
              <span className="park-muted">
                {r.location} · {r.reporter} · {r.crtTime.slice(0, 16)}
              </span>
            </div>
            <StatusTag status={r.status} />
            <HandleButtons repair={r} onDone={reload} />
          </li>
        ))}
      </ul>
      <div className="park-pager">
        <span className="park-muted">{t.total(total)}</span>
        <button type="button" className="park-button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t.prev}
        </button>
        <span>
          {page} / {pages}
        </span>
        <button type="button" className="park-button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          {t.next}
        </button>
      </div>
    </div>
  );
}

export function StatusTag({ status }: { status: number }) {
  const t = useTexts();
  return <span className={`park-tag park-tag-${status}`}>{t.status[status]}</span>;
}

/** 受理 / 完成: only for a role that holds `repair:handle` (the server checks it again). */
function HandleButtons({ repair, onDone }: { repair: Repair; onDone: () => void }) {
  const host = useHost();
  const t = useTexts();
  const [error, setError] = useState<string | null>(null);
  if (!host.hasPermission(HANDLE) || repair.status === 2) return null;
  const next = repair.status === 0 ? 1 : 2;
  const advance = async () => {
    const res = await host.request(`/api/front/park/repairs/${repair.id}/status`, { body: { status: next } });
    if (res.status === 200) onDone();
    else setError(res.message);
  };
  return (
    <span className="park-handle">
      <button type="button" className="park-button park-button-primary" onClick={advance}>
        {next === 1 ? t.accept : t.finish}
      </button>
      {error ? <em role="alert">{error}</em> : null}
    </span>
  );
}

export function Failed({ message, retry }: { message: string; retry: () => void }) {
  const t = useTexts();
  return (
    <div className="park-card park-failed" role="alert">
      <span>{message}</span>
      <button type="button" className="park-button" onClick={retry}>
        {t.retry}
      </button>
    </div>
  );
}

/** One request: the second page, opened in a portal tab of its own through the host. */
export function RepairDetail({ id }: { id: string }) {
  const host = useHost();
  const t = useTexts();
  const [one, reload] = useCall<Repair>(() => host.request(`/api/front/park/repairs/${id}`), id);
  return (
    <div className="park-page">
      <h2 className="park-heading">{t.detailTitle(id)}</h2>
      {one.state === 'loading' ? <p className="park-muted">{t.loading}</p> : null}
      {one.state === 'failed' ? <Failed message={one.message} retry={reload} /> : null}
      {one.state === 'done' ? (
        <div className="park-card">
          <dl className="park-detail">
            <dt>{t.title}</dt>
            <dd>{one.data.title}</dd>
            <dt>{t.location}</dt>
            <dd>{one.data.location}</dd>
            <dt>{t.description}</dt>
            <dd>{one.data.description || '-'}</dd>
            <dt>{t.reporter}</dt>
            <dd>{one.data.reporter}</dd>
            <dt>{t.time}</dt>
            <dd>{one.data.crtTime}</dd>
            <dt>{t.updated}</dt>
            <dd>{one.data.updateTime}</dd>
          </dl>
          <div className="park-actions">
            <StatusTag status={one.data.status} />
            <HandleButtons repair={one.data} onDone={reload} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
