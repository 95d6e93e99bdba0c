import { useEffect, useRef } from 'react';
import MarqueeImport from 'react-fast-marquee';
import { cjsDefault } from './cjs-default';
import { GALLERY_SPEED, pictures } from './gallery-pictures';

const Marquee = cjsDefault(MarqueeImport);

/**
 * The moving row (loaded lazily by gallery.tsx). The marquee repeats its row to loop; the
 * copies are hidden from assistive technology so each picture is announced once.
 */
export default function GalleryMarquee() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const hideCopies = () =>
      ref.current?.querySelectorAll('.rfm-marquee + .rfm-marquee').forEach((copy) => copy.setAttribute('aria-hidden', 'true'));
    const observer = new MutationObserver(hideCopies);
    if (ref.current) observer.observe(ref.current, { childList: true, subtree: true });
    hideCopies();
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} data-testid="gallery-marquee">
      <Marquee speed={GALLERY_SPEED} gradient={false} pauseOnHover>
        {pictures}
      </Marquee>
    </div>
  );
}
