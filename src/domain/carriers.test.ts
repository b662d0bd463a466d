// The carriers' tracking pages (issue 26): what the shipping mail links.
import { describe, expect, it } from 'vitest';
import { CARRIERS, findCarrier, trackingUrl } from './carriers.ts';

describe('trackingUrl', () => {
  it('links each carrier the back office offers, the number without its spaces', () => {
    expect(trackingUrl('Colissimo', '6A 1234 5678')).toBe(
      'https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678',
    );
    expect(trackingUrl(' chronopost ', 'XY123')).toBe(
      'https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=XY123',
    );
    expect(trackingUrl('DHL Express', '1234')).toBe(
      'https://www.dhl.com/global-en/home/tracking.html?tracking-id=1234',
    );
    expect(trackingUrl('La Poste', 'LA1')).toContain('laposte.fr');
    for (const carrier of CARRIERS)
      expect(new URL(trackingUrl(carrier.name, 'A/B&C')!).protocol).toBe('https:');
    expect(trackingUrl('UPS', 'A/B&C')).toBe('https://www.ups.com/track?tracknum=A%2FB%26C');
  });

  it('links nothing for an unknown carrier or without a number', () => {
    expect(trackingUrl('Coursier du quartier', '12')).toBeNull();
    expect(trackingUrl('DHL', ' ')).toBeNull();
    expect(trackingUrl(null, '12')).toBeNull();
    expect(findCarrier('dhlx')).toBeNull();
    expect(findCarrier('Fédex')?.name).toBe('FedEx');
  });
});
