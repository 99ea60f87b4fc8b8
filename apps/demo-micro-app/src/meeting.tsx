import type { Booking, Room } from '@portal/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { useHost, useTexts } from './host';
import { Failed, TextField } from './repairs';
import { useCall } from './use-call';

/** Today in park (China) time, `YYYY-MM-DD`. */
const parkToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

/** The quarter hours a booking may start or end on, 08:00 to 22:00. */
const QUARTERS = Array.from({ length: 14 * 4 + 1 }, (_, i) => {
  const minutes = 8 * 60 + i * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

/** 会议室预约: the day's bookings of every room, and a booking form; an overlap is refused by the server. */
export function Meeting() {
  const host = useHost();
  const t = useTexts();
  const [date, setDate] = useState(parkToday);
  const [rooms, reloadRooms] = useCall<Room[]>(() => host.request('/api/front/park/rooms'), 'rooms');
  const [bookings, reload] = useCall<Booking[]>(
    () => host.request('/api/front/park/bookings', { query: { date } }),
    date,
  );
  const byRoom = useMemo(() => {
    const map = new Map<string, Booking[]>();
    if (bookings.state === 'done') for (const b of bookings.data) map.set(b.roomId, [...(map.get(b.roomId) ?? []), b]);
    return map;
  }, [bookings]);

  return (
    <div className="park-page">
      <h2 className="park-heading">{t.meeting}</h2>
      <label className="park-field park-date">
        <span>{t.date}</span>
        <input
          type="date"
          name="date"
          value={date}
          min={parkToday()}
          onChange={(e) => e.target.value && setDate(e.target.value)}
        />
      </label>
      {rooms.state === 'failed' ? <Failed message={rooms.message} retry={reloadRooms} /> : null}
      {bookings.state === 'failed' ? <Failed message={bookings.message} retry={reload} /> : null}
      {rooms.state === 'done' ? (
        <>
          <BookingForm rooms={rooms.data} date={date} onBooked={reload} />
          <div className="park-rooms">
            {rooms.data.map((room) => (
              <div key={room.id} className="park-card park-room">
                <h3 className="park-subheading">
                  {room.name} <span className="park-muted">{t.capacity(room.capacity)}</span>
                </h3>
                <DayBookings list={byRoom.get(room.id) ?? []} onCancelled={reload} />
              </div>
            ))}
          </div>
        </>
      ) : rooms.state === 'loading' ? (
        <p className="park-muted">{t.loading}</p>
      ) : null}
    </div>
  );
}

function DayBookings({ list, onCancelled }: { list: Booking[]; onCancelled: () => void }) {
  const host = useHost();
  const t = useTexts();
  const [error, setError] = useState<string | null>(null);
  if (list.length === 0) return <p className="park-muted">{t.free}</p>;
  const cancel = async (id: string) => {
    const res = await host.request(`/api/front/park/bookings/${id}/cancel`, { body: {} });
    if (res.status === 200) onCancelled();
    else setError(res.message);
  };
  return (
    <ul className="park-slots">
      {list.map((b) => (
        <li key={b.id} className={b.mine ? 'park-slot park-slot-mine' : 'park-slot'}>
          <span className="park-slot-time">
            {b.startTime.slice(11)}–{b.endTime.slice(11)}
          </span>
          <span>{b.mine ? b.subject : t.taken}</span>
          {b.mine ? (
            <button type="button" className="park-link" onClick={() => cancel(b.id)}>
              {t.cancel}
            </button>
          ) : null}
        </li>
      ))}
      {error ? (
        <li role="alert" className="park-error">
          {error}
        </li>
      ) : null}
    </ul>
  );
}

function BookingForm({ rooms, date, onBooked }: { rooms: Room[]; date: string; onBooked: () => void }) {
  const host = useHost();
  const t = useTexts();
  const [roomId, setRoomId] = useState(rooms[0]?.id ?? '');
  const [start, setStart] = useState('10:00');
  const [end, setEnd] = useState('11:00');
  const [subject, setSubject] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (subject.trim().length < 2) {
      setNote({ ok: false, text: t.required });
      return;
    }
    setBusy(true);
    const res = await host.request<string>('/api/front/park/bookings', {
      body: { roomId, subject, startTime: `${date} ${start}`, endTime: `${date} ${end}` },
    });
    setBusy(false);
    setNote({ ok: res.status === 200, text: res.status === 200 ? t.booked : res.message });
    if (res.status === 200) {
      setSubject('');
      onBooked();
    }
  };

  return (
    <form className="park-card park-form park-booking" onSubmit={submit} noValidate>
      <label className="park-field">
        <span>{t.room}</span>
        <select name="room" value={roomId} onChange={(e) => setRoomId(e.target.value)}>
          {rooms.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <label className="park-field">
        <span>{t.start}</span>
        <select name="start" value={start} onChange={(e) => setStart(e.target.value)}>
          {QUARTERS.map((q) => (
            <option key={q}>{q}</option>
          ))}
        </select>
      </label>
      <label className="park-field">
        <span>{t.end}</span>
        <select name="end" value={end} onChange={(e) => setEnd(e.target.value)}>
          {QUARTERS.map((q) => (
            <option key={q}>{q}</option>
          ))}
        </select>
      </label>
      <TextField
        name="subject"
        label={t.subject}
        value={subject}
        placeholder={t.subjectPlaceholder}
        wide
        onChange={setSubject}
      />
      <div className="park-actions">
        <button type="submit" className="park-button park-button-primary" disabled={busy}>
          {t.book}
        </button>
        {note ? (
          <span role={note.ok ? 'status' : 'alert'} className={note.ok ? 'park-ok' : 'park-error'}>
            {note.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}
