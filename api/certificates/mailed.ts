// An order's certificates of authenticity as its confirmation mail links them (issue 26): the work's
// title in the buyer's language, the edition label, and the signed link to the PDF that works
// without an account (api/certificates/links.ts).
import type { Executor } from '../db/index.ts';
import type { MailedCertificate } from '../mail/orders.ts';
import { certificatesOfOrders, findCertificate } from './index.ts';

export async function mailedCertificates(
  db: Executor,
  orderId: string,
  siteUrl?: string,
): Promise<MailedCertificate[]> {
  const listed = (await certificatesOfOrders(db, [orderId], siteUrl)).get(orderId) ?? [];
  const out: MailedCertificate[] = [];
  for (const certificate of listed) {
    if (certificate.state !== 'valid') continue;
    const found = await findCertificate(db, certificate.serial);
    if (!found) continue;
    out.push({
      title: found.content.work.title[found.content.language],
      label: certificate.label,
      url: certificate.pdfUrl,
    });
  }
  return out;
}
