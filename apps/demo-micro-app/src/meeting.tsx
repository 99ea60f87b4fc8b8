import {
  endChoices,
  firstBookingDate,
  nextFreeSlot,
  parkDate,
  startChoices,
  type Booking,
  type Room,
} from '@portal/contracts';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useHost, useTexts } from './host';
import { Failed, TextField } from './repairs';
import { useCall } from './use-call';

/** Today in park (China) time, `YYYY-MM-DD`. */
const parkToday = () => parkDate(Date.now());

/** 会议室预约: the day's bookings of every room, and a booking form; an overlap is refused by the server. */
export function Meeting() {
  const host = useHost();
  const t = useTexts();
  // Today, or tomorrow once today has no time left to book.
  const [date, setDate] = useState(() => firstBookingDate(Date.now()));
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
          <BookingForm
            rooms={rooms.data}
            date={date}
            bookings={bookings.state === 'done' ? bookings.data : null}
            onBooked={reload}
          />
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

function BookingForm({
  rooms,
  date,
  bookings,
  onBooked,
}: {
  rooms: Room[];
  date: string;
  /** The day's bookings of every room; null while they load. */
  bookings: Booking[] | null;
  onBooked: () => void;
}) {
  const host = useHost();
  const t = useTexts();
  const [roomId, setRoomId] = useState(rooms[0]?.id ?? '');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [subject, setSubject] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  // Only times that have not begun (the server refuses the past), and ends after the start.
  const starts = startChoices(date, Date.now());
  const ends = start ? endChoices(start) : [];
  // The next free time of the room (not past, not booked), whenever the room, the day or its
  // bookings change; the person may then choose another.
  useEffect(() => {
    if (!bookings) return;
    const free = nextFreeSlot(
      date,
      Date.now(),
      bookings.filter((b) => b.roomId === roomId),
    );
    setStart(free?.start ?? '');
    setEnd(free?.end ?? '');
  }, [bookings, roomId, date]);

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
        <select
          name="start"
          value={start}
          onChange={(e) => {
            const chosen = e.target.value;
            setStart(chosen);
            // An end that no longer follows the start moves an hour on (or as far as it may).
            if (!endChoices(chosen).includes(end)) setEnd(endChoices(chosen)[3] ?? endChoices(chosen).at(-1) ?? '');
          }}
        >
          {starts.length === 0 ? <option value="">{t.noTimeLeft}</option> : null}
          {starts.map((q) => (
            <option key={q}>{q}</option>
          ))}
        </select>
      </label>
      <label className="park-field">
        <span>{t.end}</span>
        <select name="end" value={end} onChange={(e) => setEnd(e.target.value)}>
          {ends.map((q) => (
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
        <button type="submit" className="park-button park-button-primary" disabled={busy || !start || !end}>
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
