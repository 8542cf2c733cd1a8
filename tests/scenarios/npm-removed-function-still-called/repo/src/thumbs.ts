import imgkit from 'imgkit';

export async function thumbnail(buffer: Buffer, width: number, height: number): Promise<Buffer> {
    return imgkit(buffer)
        .resize({
            width,
            height,
            fit: 'inside',
            withoutEnlargement: true,
            tint: 'rgba(0,0,0,0)',
        })
        .png()
        .toBuffer();
}
