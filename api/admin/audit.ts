// The audit log (issue 11): every admin change writes who, what, before → after and when, in the
// change's own transaction, so a change and its record are never one without the other.
import type { Executor } from '../db/index.ts';

export interface Actor {
  id: string;
  email: string;
}

export async function audit(
  trx: Executor,
  actor: Actor,
  action: string,
  entity: string,
  entityId: string | number,
  before: unknown,
  after: unknown,
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_email: actor.email,
      action,
      entity,
      entity_id: String(entityId),
      before: before === null || before === undefined ? null : JSON.stringify(before),
      after: after === null || after === undefined ? null : JSON.stringify(after),
    })
    .execute();
}

export interface AuditEntry {
  at: string;
  actor: string | null;
  action: string;
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
}

/** The newest entries first, optionally of one entity. */
export async function readAudit(
  db: Executor,
  filter: { entity?: string | undefined; entityId?: string | undefined; limit?: number },
): Promise<AuditEntry[]> {
  let query = db
    .selectFrom('audit_log')
    .select(['at', 'actor_email', 'action', 'entity', 'entity_id', 'before', 'after'])
    .orderBy('id', 'desc')
    .limit(Math.min(filter.limit ?? 100, 500));
  if (filter.entity) query = query.where('entity', '=', filter.entity);
  if (filter.entityId) query = query.where('entity_id', '=', filter.entityId);
  return (await query.execute()).map((r) => ({
    at: new Date(r.at).toISOString(),
    actor: r.actor_email,
    action: r.action,
    entity: r.entity,
    entityId: r.entity_id,
    before: r.before,
    after: r.after,
  }));
}
