import type { AppProps } from 'next/app';
import { useRouter } from 'next/router';
import { Presence, motion } from 'motionkit';

export default function App({ Component, pageProps }: AppProps) {
  const router = useRouter();
  return (
    <Presence
      exitFirst
      initial={false}
    >
      <motion.div key={router.route} exit={{ opacity: 0 }}>
        <Component {...pageProps} />
      </motion.div>
    </Presence>
  );
}
