import Head from 'next/head'

import { withLang } from '@/i18n/instance'

function Home ({ t }) {
  return (
    <>
      <Head><title>{t('title')}</title></Head>
      <h1>{t('welcome')}</h1>
    </>
  )
}

Home.getInitialProps = async () => ({ namespacesRequired: ['common'] })

export default withLang('common')(Home)
