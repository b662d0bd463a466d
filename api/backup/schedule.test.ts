import { describe, expect, it } from 'vitest';
import {
  autoBackupName,
  autoBackupTime,
  backupsToPrune,
  isBackupDue,
  manualBackupName,
} from './schedule.ts';

const at = (iso: string) => new Date(iso);
const hours = (n: number) => n * 3_600_000;

describe('backup names', () => {
  it('records the UTC time in a sortable name, and reads it back', () => {
    const date = at('2026-11-24T03:15:09.456Z');
    expect(autoBackupName(date)).toBe('galerie-auto-20261124T031509Z.tar.gz');
    expect(manualBackupName(date)).toBe('galerie-backup-20261124T031509Z.tar.gz');
    expect(autoBackupTime(autoBackupName(date))).toEqual(at('2026-11-24T03:15:09Z'));
    expect(autoBackupTime(manualBackupName(date))).toBeNull();
    expect(autoBackupTime('galerie-auto-20261124T031509Z.tar.gz.partial')).toBeNull();
    expect(autoBackupTime('galerie-auto-20261399T031509Z.tar.gz')).toBeNull();
  });
});

describe('once a day', () => {
  const t0 = at('2026-11-24T03:00:00Z');
  it('is due with no backup, a day later, and when the clock went back', () => {
    expect(isBackupDue(null, t0)).toBe(true);
    expect(isBackupDue(t0, new Date(t0.getTime() + hours(1)))).toBe(false);
    expect(isBackupDue(t0, new Date(t0.getTime() + hours(22.9)))).toBe(false);
    // Hourly looks: the look 23 h later takes it, so the time of day does not drift.
    expect(isBackupDue(t0, new Date(t0.getTime() + hours(23)))).toBe(true);
    expect(isBackupDue(t0, new Date(t0.getTime() + hours(72)))).toBe(true);
    expect(isBackupDue(t0, new Date(t0.getTime() - hours(0.5)))).toBe(false);
    expect(isBackupDue(t0, new Date(t0.getTime() - hours(2)))).toBe(true);
  });
});

describe('keeping the newest N', () => {
  const names = [
    'galerie-auto-20261120T030000Z.tar.gz',
    'galerie-auto-20261124T030000Z.tar.gz',
    'galerie-auto-20261122T030000Z.tar.gz',
    'galerie-auto-20261121T030000Z.tar.gz',
    'galerie-auto-20261123T030000Z.tar.gz',
    'galerie-backup-20261101T030000Z.tar.gz',
    'galerie-auto-20261125T030000Z.tar.gz.partial',
    'notes.txt',
  ];
  it('deletes only older automatic backups', () => {
    expect(backupsToPrune(names, 3)).toEqual([
      'galerie-auto-20261121T030000Z.tar.gz',
      'galerie-auto-20261120T030000Z.tar.gz',
    ]);
    expect(backupsToPrune(names, 7)).toEqual([]);
    // At least the newest is always kept.
    expect(backupsToPrune(names, 0)).toHaveLength(4);
  });
});
