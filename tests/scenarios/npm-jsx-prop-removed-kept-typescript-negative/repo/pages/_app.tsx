import type { AppProps } from 'next/app';
import { useRouter } from 'next/router';
import { Presence, motion } from 'motionkit';
import { Fade } from '../components/fade';

export default function App({ Component, pageProps }: AppProps) {
  const router = useRouter();
  return (
    <Presence mode="wait" initial={false}>
      <Fade exitFirst>
        <motion.div key={router.route} exit={{ opacity: 0 }}>
          <Component {...pageProps} />
        </motion.div>
      </Fade>
    </Presence>
  );
}
